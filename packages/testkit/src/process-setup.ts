/**
 * Global setup of the process tier: these tests run `scripts/serve.js` and `dist/`, so the build
 * must match the sources. `tsc -b` is incremental (about a second when nothing changed); a build
 * error stops the tier before any process starts. Then the servers, as for integration tests.
 */
import { execFileSync } from 'node:child_process';
import globalSetup from './global-setup';
import { REPO_ROOT } from './paths';

export default async function processSetup(): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [REPO_ROOT] });
  try {
    execFileSync(process.execPath, [tsc, '-b', 'tsconfig.json'], { cwd: REPO_ROOT, stdio: 'pipe' });
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString() ?? String(error);
    throw new Error(`process tests run dist/, and building it failed (tsc -b tsconfig.json):\n${output}`);
  }
  await globalSetup();
}
