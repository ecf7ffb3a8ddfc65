/**
 * Worker-thread entry for the content pool: extracts page content off the main thread. Loaded
 * only by `createContentWorkerPool`, never imported.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { createContentExtractor, type ContentRequest } from './page-content';

export interface ContentTask {
  id: number;
  html: string;
  url: string;
  request: ContentRequest;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const extractor = createContentExtractor();
  port.on('message', (task: ContentTask) => {
    try {
      port.postMessage({ id: task.id, content: extractor.extract(task.html, task.url, task.request) });
    } catch (error) {
      port.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
