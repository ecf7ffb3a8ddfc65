import type { StaticApiKey } from '@sitelens/config';
import type { PlanName } from '@sitelens/contracts';
import { hashApiKey, keyIdOf } from './api-keys';
import type { ApiKeyStore } from './key-store';

export interface ResolvedKey {
  keyId: string;
  plan: PlanName;
}

/** How long an issued key's lookup is reused; bounds how late a revocation takes effect. */
export const KEY_CACHE_MS = 2_000;
const CACHE_MAX_ENTRIES = 10_000;

/**
 * Turns a presented key into its id and plan: static keys (API_KEYS) from memory, issued keys
 * from Redis with a short cache. Keys are compared by SHA-256 only. Unknown keys are not cached,
 * so a key issued a moment ago works at once.
 */
export class KeyResolver {
  private readonly staticKeys = new Map<string, PlanName>();
  private readonly cache = new Map<string, { value: ResolvedKey; expiresAt: number }>();

  constructor(
    staticKeys: readonly StaticApiKey[],
    private readonly store: Pick<ApiKeyStore, 'find'>,
    private readonly cacheMs = KEY_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {
    for (const { key, plan } of staticKeys) this.staticKeys.set(hashApiKey(key), plan);
  }

  get staticKeyCount(): number {
    return this.staticKeys.size;
  }

  /** The key's id and plan, or undefined for an unknown or revoked key. Throws when Redis fails. */
  async resolve(key: string): Promise<ResolvedKey | undefined> {
    const hash = hashApiKey(key);
    const staticPlan = this.staticKeys.get(hash);
    if (staticPlan) return { keyId: keyIdOf(hash), plan: staticPlan };

    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > this.now()) return cached.value;
    this.cache.delete(hash);

    const issued = await this.store.find(hash);
    if (!issued || issued.revokedAt) return undefined;
    const value = { keyId: issued.keyId, plan: issued.plan };
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(hash, { value, expiresAt: this.now() + this.cacheMs });
    return value;
  }
}
