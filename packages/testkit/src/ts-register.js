/**
 * Lets Node require the workspace's TypeScript sources (tests' worker threads, benchmarks):
 * compiles each .ts file with SWC as it is required, and resolves workspace packages
 * (`@sitelens/web`) to their sources, as jest's moduleNameMapper does. Requiring this module
 * installs the hooks; production runs the compiled .js instead.
 */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const swc = require('@swc/core');

const ROOT = path.resolve(__dirname, '../../..');

require.extensions['.ts'] = (mod, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    // import() stays import() (pdf.js is an ES module), as tsc's nodenext output keeps it.
    module: { type: 'commonjs', ignoreDynamic: true },
  });
  mod._compile(code, filename);
};

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const name = /^@sitelens\/([a-z-]+)$/.exec(request)?.[1];
  if (name) {
    for (const dir of ['packages', 'services']) {
      const entry = path.join(ROOT, dir, name, 'src/index.ts');
      if (fs.existsSync(entry)) return entry;
    }
  }
  return resolveFilename.call(this, request, ...rest);
};
