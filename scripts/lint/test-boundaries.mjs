/**
 * ESLint rule for tests: no import climbs out of its own package (or, for the root `test/`
 * tree, out of `test/`), and none reaches into another package's files (`@sitelens/web/src/x`).
 * What tests share lives in `@sitelens/testkit`; another package is used through its public entry.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The folder a file's imports must stay in: its package, or `test/` for the root tests. */
function treeOf(file) {
  for (let dir = path.dirname(file); dir.startsWith(REPO_ROOT) && dir !== REPO_ROOT; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  const rootTests = path.join(REPO_ROOT, 'test');
  return file.startsWith(rootTests + path.sep) ? rootTests : undefined;
}

const noCrossPackage = {
  meta: {
    type: 'problem',
    docs: { description: 'Tests import other packages by name (@sitelens/x, @sitelens/testkit), never by path.' },
    schema: [],
    messages: {
      climbs:
        "'{{spec}}' climbs out of {{tree}}: import shared test helpers from @sitelens/testkit and other packages from their public entry (@sitelens/<name>).",
      deep: "'{{spec}}' reaches into a package's files: import its public entry (@sitelens/<name>) or a testkit subpath (@sitelens/testkit/<module>).",
    },
  },
  create(context) {
    const file = context.filename;
    const tree = treeOf(file);
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        if (tree && target !== tree && !target.startsWith(tree + path.sep)) {
          context.report({ node, messageId: 'climbs', data: { spec, tree: path.relative(REPO_ROOT, tree) } });
        }
      } else if (/^@sitelens\/[^/]+\//.test(spec) && !/^@sitelens\/testkit\/[a-z0-9-]+$/.test(spec)) {
        context.report({ node, messageId: 'deep', data: { spec } });
      }
    };
    const literal = (node) => (node?.type === 'Literal' ? node.value : undefined);
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ImportExpression: (node) => check(node.source, literal(node.source)),
      TSImportType: (node) => check(node, literal(node.argument?.literal ?? node.argument)),
      CallExpression(node) {
        const callee = node.callee;
        const isRequire = callee.type === 'Identifier' && callee.name === 'require';
        const isJest =
          callee.type === 'MemberExpression' &&
          callee.object.name === 'jest' &&
          ['mock', 'requireActual', 'doMock'].includes(callee.property.name);
        if (isRequire || isJest) check(node.arguments[0], literal(node.arguments[0]));
      },
    };
  },
};

export default { rules: { 'no-cross-package': noCrossPackage } };
