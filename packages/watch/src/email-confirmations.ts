import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Consent of a watch's `notify_email` in hosted mode: an address gets watch mail from a key's
 * watches only after someone clicked the link of the one confirmation mail sent to it. Per key
 * (one tenant's confirmed address does not let another mail it), in Redis under QUEUE_PREFIX:
 *
 *   <prefix>:watch-email:<key id>:<address hash>   hash: address, origin, registered_at, sent_at, confirmed_at
 *   <prefix>:watch-email-token:<token hash>        string: "<key id>:<address hash>", expires with the link
 *   <prefix>:watch-email-sent:<address hash>       string: set while the address may get no other request
 *
 * The gateway registers an address when a watch is made with it; the parse worker sends the mail
 * (it has the mailer) and the gateway's public confirm route takes the click.
 */

export const EMAIL_CONFIRMATION = {
  /** How long a confirmation link works. */
  linkTtlMs: 7 * 86_400_000,
  /** Whatever the key, an address gets at most one confirmation request per this window. */
  perAddressWindowSeconds: 86_400,
} as const;

// KEYS: record, per-address window, token. ARGV: now ms, link ttl ms, window s, token value.
// Claims the one confirmation mail: only for a registered, unconfirmed address that got none yet
// (or whose link expired and that was registered again since), and only once per window per
// address whatever the key. Returns the origin the link goes to, or false.
const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HEXISTS', KEYS[1], 'confirmed_at') == 1 then return false end
local sent = tonumber(redis.call('HGET', KEYS[1], 'sent_at') or '')
if sent then
  local registered = tonumber(redis.call('HGET', KEYS[1], 'registered_at') or '0')
  if sent + tonumber(ARGV[2]) > tonumber(ARGV[1]) or registered <= sent then return false end
end
if not redis.call('SET', KEYS[2], '1', 'EX', ARGV[3], 'NX') then return false end
redis.call('HSET', KEYS[1], 'sent_at', ARGV[1])
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[2])
return redis.call('HGET', KEYS[1], 'origin')`;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function addressHash(address: string): string {
  return sha256(address.trim().toLowerCase()).slice(0, 32);
}

export interface ClaimedConfirmation {
  /** The link to put in the mail. */
  link: string;
  /** Gives the claim back when the mail could not be sent, so a later check tries again. */
  release(): Promise<void>;
}

export class EmailConfirmations {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  private recordKey(owner: string, address: string): string {
    return `${this.prefix}:watch-email:${owner}:${addressHash(address)}`;
  }

  /** Notes that `owner` wants watch mail sent to `address`; `origin` is where the confirm link points. */
  async register(owner: string, address: string, origin: string): Promise<void> {
    const key = this.recordKey(owner, address);
    await this.redis.multi().hsetnx(key, 'address', address).hset(key, 'origin', origin, 'registered_at', String(this.now())).exec();
  }

  async isConfirmed(owner: string, address: string): Promise<boolean> {
    return (await this.redis.hexists(this.recordKey(owner, address), 'confirmed_at')) === 1;
  }

  /** The confirmation mail's link when this caller may send it now; undefined otherwise. */
  async claim(owner: string, address: string): Promise<ClaimedConfirmation | undefined> {
    const token = randomBytes(32).toString('base64url');
    const record = this.recordKey(owner, address);
    const window = `${this.prefix}:watch-email-sent:${addressHash(address)}`;
    const tokenKey = `${this.prefix}:watch-email-token:${sha256(token)}`;
    const target = `${owner}:${addressHash(address)}`;
    const origin = (await this.redis.eval(
      CLAIM,
      3,
      record,
      window,
      tokenKey,
      String(this.now()),
      String(EMAIL_CONFIRMATION.linkTtlMs),
      String(EMAIL_CONFIRMATION.perAddressWindowSeconds),
      target,
    )) as string | null;
    if (origin === null) return undefined;
    return {
      link: `${origin}/v1/watch/confirm?token=${token}`,
      release: async () => {
        await this.redis.multi().hdel(record, 'sent_at').del(window, tokenKey).exec();
      },
    };
  }

  /** Confirms the address a link was sent to; its address, or undefined for an unknown or expired token. */
  async confirm(token: string): Promise<string | undefined> {
    const target = await this.redis.get(`${this.prefix}:watch-email-token:${sha256(token)}`);
    if (target === null) return undefined;
    const record = `${this.prefix}:watch-email:${target}`;
    const address = await this.redis.hget(record, 'address');
    if (address === null) return undefined;
    // Idempotent: a second click of the link answers the same and keeps the first time.
    await this.redis.hsetnx(record, 'confirmed_at', String(this.now()));
    return address;
  }
}
