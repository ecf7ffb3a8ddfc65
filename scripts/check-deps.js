#!/usr/bin/env node
/**
 * Declared but never imported: every dependency in a workspace package's package.json must be
 * imported (or required) by that package's src. The other direction, imports a package.json does
 * not declare, is dependency-cruiser's (.dependency-cruiser.cjs). Part of `npm run lint`.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
/** Dependencies used without an import: loaded by name at run time. */
const USED_WITHOUT_IMPORT = {};

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|js|cjs|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Module names a file loads: `from 'x'`, `import 'x'`, `require('x')`, `require.resolve('x/...')`, `import('x')`. */
function importedModules(text) {
  const names = new Set();
  const pattern = /(?:\bfrom\s+|\bimport\s+|\brequire(?:\.resolve)?\(\s*|\bimport\(\s*)['"]([^'"./][^'"]*)['"]/g;
  for (const match of text.matchAll(pattern)) {
    const parts = match[1].split('/');
    names.add(match[1].startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

const problems = [];
for (const group of ['packages', 'services']) {
  for (const name of fs.readdirSync(path.join(root, group)).sort()) {
    const dir = path.join(root, group, name);
    const manifestPath = path.join(dir, 'package.json');
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    const used = new Set();
    for (const file of sourceFiles(path.join(dir, 'src'))) {
      for (const module of importedModules(fs.readFileSync(file, 'utf8'))) used.add(module);
    }
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (used.has(dependency) || (USED_WITHOUT_IMPORT[manifest.name] ?? []).includes(dependency)) continue;
      problems.push(`${manifest.name}: "${dependency}" is declared in ${group}/${name}/package.json but never imported by its src`);
    }
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log('dependencies: every declared dependency is imported');
