import path from 'node:path';

/**
 * Content-extraction threads that run the TypeScript sources (jest does not build): pass as
 * `contentWorkers` to `startParseWorker` / `openParseWorkerContext` in tests.
 */
export function contentWorkersForTests(size = 2) {
  const web = path.resolve(__dirname, '../../packages/web');
  return {
    size,
    workerScript: path.join(web, 'test/helpers/ts-worker.js'),
    workerData: { entry: path.join(web, 'src/content/content-worker.ts') },
  };
}

/** The gateway's schema-check thread running the TypeScript sources: pass as `schemaChecker` to `buildGatewayDeps`. */
export function schemaCheckerForTests() {
  return {
    workerScript: path.resolve(__dirname, '../../packages/web/test/helpers/ts-worker.js'),
    workerData: { entry: path.resolve(__dirname, '../../packages/extract/src/schema-check-worker.ts') },
  };
}
