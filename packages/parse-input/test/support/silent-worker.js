// A schema-check worker that never answers: stands in for a check that runs past its deadline.
require('node:worker_threads').parentPort.on('message', () => undefined);
