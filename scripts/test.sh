#!/usr/bin/env bash
# Lint, type-check the tests (the build, run by setup, type-checks the sources) and every jest
# test in its three tiers (unit, integration, process; see jest.config.js), then one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache
pnpm exec eslint . || { echo "lint: 0 passed, 1 failed"; exit 1; }
# Import rules: no cycles (type-only imports included), the package layering (.dependency-cruiser.cjs).
pnpm run -s lint:imports || { echo "lint: 0 passed, 1 failed"; exit 1; }
# One format for all code (Prettier; `npm run format` writes it).
pnpm run -s format:check || { echo "lint: 0 passed, 1 failed"; exit 1; }
pnpm exec tsc -p tsconfig.tests.json || { echo "test types: 0 passed, 1 failed"; exit 1; }
# A run that never started must not report the previous run's figures.
rm -f .cache/jest-results.json
pnpm exec jest --ci --json --outputFile=.cache/jest-results.json "$@"
status=$?
node -e '
  const r = require("./.cache/jest-results.json");
  console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests + r.numRuntimeErrorTestSuites} failed, ${r.numPendingTests} skipped`);
' || echo "jest: 0 passed, 1 failed, 0 skipped"
exit $status
