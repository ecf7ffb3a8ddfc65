/**
 * A content-worker entry for tests: the real extractor, except that a page carrying the
 * `data-test-stall` marker never finishes (a busy loop, as a pathological page would). Before it
 * loops it raises the flag in `workerData.started` (a SharedArrayBuffer), so a test knows the
 * thread is busy with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createContentExtractor, type ContentRequest } from '@sitelens/web';

/** What the content pool posts to its threads (see `@sitelens/web`'s content worker). */
interface ContentTask {
  id: number;
  html: string;
  url: string;
  request: ContentRequest;
}

const started = new Int32Array((workerData as { started: SharedArrayBuffer }).started);
const extractor = createContentExtractor();
parentPort?.on('message', (task: ContentTask) => {
  if (task.html.includes('data-test-stall')) {
    Atomics.store(started, 0, 1);
    Atomics.notify(started, 0);
    for (;;) {
      // Never yields: only terminating the thread ends this.
    }
  }
  parentPort?.postMessage({ id: task.id, content: extractor.extract(task.html, task.url, task.request) });
});
