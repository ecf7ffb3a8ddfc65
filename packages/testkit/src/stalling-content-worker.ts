/**
 * A content-worker entry for tests: the real content worker, except that a page carrying the
 * `data-test-stall` marker never finishes (a busy loop, as a pathological page would). Before it
 * loops it raises the flag in `workerData.started` (a SharedArrayBuffer), so a test knows the
 * thread is busy with it.
 */
import { parentPort, workerData } from 'node:worker_threads';

const data = workerData as { started: SharedArrayBuffer; contentWorker: string };
const started = new Int32Array(data.started);
// Registered before the real worker's listener, so a marked page never reaches it.
parentPort?.on('message', (task: { html: string }) => {
  if (!task.html.includes('data-test-stall')) return;
  Atomics.store(started, 0, 1);
  Atomics.notify(started, 0);
  for (;;) {
    // Never yields: only terminating the thread ends this.
  }
});
// Every other page: the real content worker (@sitelens/web's thread entry).
require(data.contentWorker);
