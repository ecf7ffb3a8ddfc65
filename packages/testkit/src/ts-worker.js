/**
 * Runs a TypeScript worker entry straight from the sources (tests only; production runs the
 * compiled .js). Compiles each .ts file with SWC as it is required.
 */
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const swc = require('@swc/core');

require.extensions['.ts'] = (mod, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  mod._compile(code, filename);
};

require(workerData.entry);
