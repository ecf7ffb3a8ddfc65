import path from 'node:path';

/** The workspace root: testkit lives at packages/testkit/src. */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** A workspace package's folder by its short name (`web`, `gateway`...): packages/ or services/. */
export function workspaceDir(name: string): string {
  const inServices = ['gateway', 'screenshot-worker', 'parse-worker'].includes(name);
  return path.join(REPO_ROOT, inServices ? 'services' : 'packages', name);
}
