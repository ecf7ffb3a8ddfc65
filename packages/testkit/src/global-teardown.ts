import type { ChildProcess } from 'node:child_process';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as Record<string, unknown>).__SITELENS_TEST_STATE__ as
    { redis?: ChildProcess; s3?: { close(): Promise<void> } } | undefined;
  if (!state) return;
  state.redis?.kill('SIGTERM');
  await state.s3?.close().catch(() => undefined);
}
