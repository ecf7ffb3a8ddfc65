/**
 * Runs a TypeScript worker entry straight from the sources (tests only; production runs the
 * compiled .js): see ts-register.js.
 */
const { workerData } = require('node:worker_threads');

require('./ts-register');
require(workerData.entry);
