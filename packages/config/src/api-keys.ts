import { createHash } from 'node:crypto';
import { PLAN_NAMES, isPlanName, type PlanName } from '@sitelens/contracts';

/** SHA-256 hex of an API key: the only form in which a key is stored or compared. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Stable, non-secret id of a key (first 16 hex of its hash): the owner of its jobs. */
export function keyIdOf(hash: string): string {
  return hash.slice(0, 16);
}

/** A key given in `API_KEYS`, with the plan it is on. */
export interface StaticApiKey {
  key: string;
  plan: PlanName;
}

/**
 * Parses `API_KEYS` (`key:plan,key2:plan`). Returns the keys, or a message saying what is wrong
 * without repeating any key (messages end up in logs).
 */
export function parseApiKeys(text: string | undefined): { keys: StaticApiKey[] } | { error: string } {
  const keys: StaticApiKey[] = [];
  const seen = new Set<string>();
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const [index, entry] of entries.entries()) {
    const where = `entry ${index + 1}`;
    const colon = entry.lastIndexOf(':');
    if (colon <= 0) return { error: `${where} is not key:plan` };
    const key = entry.slice(0, colon).trim();
    const plan = entry.slice(colon + 1).trim();
    if (!key || /\s/.test(key)) return { error: `${where} has an empty key or a key with spaces` };
    if (!isPlanName(plan)) return { error: `${where} has unknown plan "${plan}" (plans: ${PLAN_NAMES.join(', ')})` };
    if (seen.has(key)) return { error: `${where} repeats a key given earlier` };
    seen.add(key);
    keys.push({ key, plan });
  }
  return { keys };
}
