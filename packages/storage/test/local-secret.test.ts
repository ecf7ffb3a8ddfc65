import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { localSecret } from '../src/create-store';

/**
 * Each thread loads the TypeScript source through SWC (jest does not build) and, per round, calls
 * localSecret on the round's directory once the main thread opens the gate: threads, unlike
 * calls in one event loop, interleave their file operations the way separate processes do.
 */
const THREAD = `
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
const swc = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (mod, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
  mod._compile(code, filename);
};
const { localSecret } = require(${JSON.stringify(path.resolve(__dirname, '../src/create-store.ts'))});
parentPort.on('message', ({ dir, gate }) => {
  Atomics.wait(gate, 0, 0);
  localSecret(dir, undefined).then((secret) => parentPort.postMessage(secret), (error) => parentPort.postMessage('error: ' + error.message));
});
parentPort.postMessage('ready');
`;

function reply(worker: Worker): Promise<string> {
  return new Promise((resolve) => worker.once('message', resolve));
}

describe('localSecret', () => {
  it('gives processes racing on a fresh DATA_DIR one complete secret, never a half-written one', async () => {
    const threads = Array.from({ length: 6 }, () => new Worker(THREAD, { eval: true }));
    try {
      await Promise.all(threads.map(reply));
      for (let round = 0; round < 20; round++) {
        const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sitelens-secret-')), 'data');
        const gate = new Int32Array(new SharedArrayBuffer(4));
        const answers = threads.map(reply);
        for (const thread of threads) thread.postMessage({ dir, gate });
        Atomics.store(gate, 0, 1);
        Atomics.notify(gate, 0);
        const secrets = await Promise.all(answers);
        expect([round, new Set(secrets).size]).toEqual([round, 1]);
        expect(secrets[0]).toMatch(/^[\w-]{43}$/);
        expect(await localSecret(dir, undefined)).toBe(secrets[0]);
      }
    } finally {
      await Promise.all(threads.map((thread) => thread.terminate()));
    }
  }, 30_000);

  it('prefers the configured secret', async () => {
    expect(await localSecret(mkdtempSync(path.join(tmpdir(), 'sitelens-secret-')), 'given')).toBe('given');
  });
});
