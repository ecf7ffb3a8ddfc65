/**
 * One jest run for the whole workspace. Sources are transpiled by SWC (type-checking is `tsc -b`,
 * run by the build); workspace packages resolve to their sources so tests never need a build.
 * Global setup starts a private Redis and an s3rver for the integration tests.
 */
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{packages,services,test}/**/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  // ESM-only dependencies are transpiled too, so they load under jest's CommonJS runtime.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(p-limit|yocto-queue|@ghostery|tldts|@remusao|@cliqz))'],
  moduleNameMapper: {
    '^@sitelens/(contracts|config|storage|queue|telemetry|egress|browser|web|extract|testkit)$': path.join(__dirname, 'packages/$1/src'),
    '^@sitelens/testkit/(.+)$': path.join(__dirname, 'packages/testkit/src/$1'),
    '^@sitelens/(gateway|screenshot-worker|parse-worker)$': path.join(__dirname, 'services/$1/src'),
  },
  globalSetup: '<rootDir>/packages/testkit/src/global-setup.ts',
  globalTeardown: '<rootDir>/packages/testkit/src/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  forceExit: true,
};
