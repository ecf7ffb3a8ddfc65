/**
 * Worker-thread entry for the content pool: extracts page content off the main thread. Loaded
 * only by `createContentWorkerPool`, never imported.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { isAppError } from '@sitelens/contracts';
import { createContentExtractor, type ContentRequest } from './page-content';
import type { DocumentType } from './documents';

export interface ContentTask {
  id: number;
  /** A page's HTML, or (for documents) '' with `document` set. */
  html: string;
  url: string;
  request: ContentRequest;
  document?: { bytes: Uint8Array; type: DocumentType };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const extractor = createContentExtractor();
  port.on('message', (task: ContentTask) => {
    const reply = (content: unknown) => port.postMessage({ id: task.id, content });
    // The page's own fault (a broken document) keeps its code; anything else is ours.
    const fail = (error: unknown) =>
      port.postMessage({
        id: task.id,
        error: error instanceof Error ? error.message : String(error),
        code: isAppError(error) ? error.code : undefined,
      });
    try {
      if (task.document) {
        extractor.extractDocument(task.document.bytes, task.document.type, task.url, task.request).then(reply, fail);
        return;
      }
      reply(extractor.extract(task.html, task.url, task.request));
    } catch (error) {
      fail(error);
    }
  });
}
