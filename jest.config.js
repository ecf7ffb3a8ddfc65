/**
 * One jest run for the whole workspace, in three tiers (jest projects; `--selectProjects <name>`
 * runs one):
 * - unit: pure logic; no servers, no Redis, no Chromium, no global setup.
 * - integration: real Redis, Chromium, s3rver, fixture sites and services in this process (the
 *   default for a test file not listed below).
 * - process: services started as processes (`scripts/serve.js`, `dist/`); its global setup builds
 *   first (`tsc -b`, incremental), so these tests never run a stale build.
 * Sources are transpiled by SWC (tests are type-checked by tsconfig.tests.json, run by
 * scripts/test.sh); workspace packages resolve to their sources so tests never need a build.
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

/** Pure logic: no server, no Redis, no browser. */
const UNIT = [
  'bench/content/score.test.js',
  'packages/browser/test/full-page-cap.test.ts',
  'packages/config/test/config.test.ts',
  'packages/config/test/machine.test.ts',
  'packages/contracts/test/phase-timer.test.ts',
  'packages/contracts/test/time-limit.test.ts',
  'packages/config/test/ops-http-addr.test.ts',
  'packages/contracts/test/job-map.test.ts',
  'packages/contracts/test/screenshot-controls.test.ts',
  'packages/contracts/test/page-context.test.ts',
  'packages/browser/test/host-lists.test.ts',
  'packages/queue/test/screenshot-cache-key.test.ts',
  'packages/egress/test/url-policy.test.ts',
  'packages/parse-input/test/analyze-prompt.test.ts',
  'packages/extract/test/format.test.ts',
  'packages/extract/test/merge.test.ts',
  'packages/parse-input/test/parse-request.test.ts',
  'packages/parse-input/test/schema-limits.test.ts',
  'packages/parse-input/test/templates.test.ts',
  'packages/extract/test/tokens.test.ts',
  'packages/queue/test/follow-job.test.ts',
  'packages/web/test/boilerplate-blocks.test.ts',
  'packages/web/test/content.test.ts',
  'packages/web/test/page-structure.test.ts',
  'packages/web/test/path-glob.test.ts',
  'packages/web/test/recipe-and-spec-rules.test.ts',
  'packages/web/test/robots-rules.test.ts',
  'packages/web/test/selected-content.test.ts',
  'packages/web/test/thread-and-shop-rules.test.ts',
  'packages/web/test/thread-shape-and-fields.test.ts',
  'packages/web/test/gallery-captions.test.ts',
  'packages/web/test/buy-box.test.ts',
  'packages/web/test/implied-tags.test.ts',
  'packages/web/test/shop-and-recipe-shapes.test.ts',
  'packages/web/test/content-must-keep.test.ts',
  'packages/web/test/url-normalize.test.ts',
  'services/gateway/test/auth-units.test.ts',
  'services/gateway/test/parse-units.test.ts',
  'services/gateway/test/redact-job-data.test.ts',
  'services/parse-worker/test/crawl-progress.test.ts',
  'services/parse-worker/test/parse-progress.test.ts',
  'services/parse-worker/test/watch-units.test.ts',
  'test/ops/compose.test.ts',
  'test/ops/dockerfile.test.ts',
];

/** Services as processes: spawn `scripts/serve.js` or a `dist/` entry. */
const PROCESS = ['services/gateway/test/keys-cli.test.ts', 'test/e2e/**/*.test.ts', 'test/fault/**/*.test.ts'];

for (const file of [...UNIT, ...PROCESS].filter((f) => !f.includes('*'))) {
  if (!existsSync(path.join(__dirname, file))) throw new Error(`jest.config.js lists ${file}, which does not exist`);
}

const ALL_TESTS = ['<rootDir>/{packages,services}/*/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'];
// A path glob as a testPathIgnorePatterns regex: "**/" is any folders, "*" anything but "/".
const toPattern = (glob) => {
  const escaped = glob.replace(/[.+?^$(){}|[\]\\]/g, '\\$&');
  return (
    '<rootDir>/' +
    escaped
      .replace(/\*\*\//g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\0/g, '(?:.*/)?') +
    '$'
  );
};

/** @type {import('jest').Config} */
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  // ESM-only dependencies are transpiled too, so they load under jest's CommonJS runtime.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(p-limit|yocto-queue|@ghostery|tldts|@remusao|@cliqz))'],
  moduleNameMapper: {
    '^@sitelens/(contracts|config|storage|queue|watch|telemetry|egress|parse-input|browser|web|extract|testkit)$': path.join(
      __dirname,
      'packages/$1/src',
    ),
    '^@sitelens/testkit/(.+)$': path.join(__dirname, 'packages/testkit/src/$1'),
    '^@sitelens/(gateway|screenshot-worker|parse-worker)$': path.join(__dirname, 'services/$1/src'),
  },
};

const servers = {
  globalSetup: '<rootDir>/packages/testkit/src/global-setup.ts',
  globalTeardown: '<rootDir>/packages/testkit/src/global-teardown.ts',
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: UNIT.map((file) => `<rootDir>/${file}`) },
    {
      ...shared,
      ...servers,
      displayName: 'integration',
      testMatch: ALL_TESTS,
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, ...[...UNIT, ...PROCESS].map(toPattern)],
    },
    {
      ...shared,
      ...servers,
      displayName: 'process',
      globalSetup: '<rootDir>/packages/testkit/src/process-setup.ts',
      testMatch: PROCESS.map((file) => `<rootDir>/${file}`),
    },
  ],
  testTimeout: 60_000,
  maxWorkers: 2,
  forceExit: true,
};
