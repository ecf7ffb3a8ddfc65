import path from 'node:path';
import { workspaceDir } from './paths';

/** Runs a TypeScript worker-thread entry straight from the sources (see ts-worker.js). */
export const TS_WORKER_SCRIPT = path.join(__dirname, 'ts-worker.js');

/** Worker-thread options that run `entry` (a .ts file) from the sources, with extra `workerData`. */
export function tsWorker(entry: string, data: Record<string, unknown> = {}) {
  return { workerScript: TS_WORKER_SCRIPT, workerData: { entry, ...data } };
}

/** @sitelens/web's content-extraction thread entry, in the sources. */
const CONTENT_WORKER = path.join(workspaceDir('web'), 'src/content/content-worker.ts');

/**
 * Content-extraction threads that run the TypeScript sources (jest does not build): pass as
 * `contentWorkers` to `startParseWorker` / `openParseWorkerContext` in tests.
 */
export function contentWorkersForTests(size = 2) {
  return { size, ...tsWorker(CONTENT_WORKER) };
}

/**
 * Content threads that run the real extractor but never finish a page carrying `data-test-stall`;
 * `started` (an Int32 in a SharedArrayBuffer) flips to 1 when one starts on such a page.
 */
export function stallingContentWorkers(started: SharedArrayBuffer, size = 2) {
  return { size, ...tsWorker(path.join(__dirname, 'stalling-content-worker.ts'), { started, contentWorker: CONTENT_WORKER }) };
}

/** The gateway's schema-check thread running the TypeScript sources: pass as `schemaChecker` to `buildGatewayDeps`. */
export function schemaCheckerForTests() {
  return tsWorker(path.join(workspaceDir('parse-input'), 'src/schema-check-worker.ts'));
}
