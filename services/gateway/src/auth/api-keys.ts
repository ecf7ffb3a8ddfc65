import { randomBytes } from 'node:crypto';
import { hashApiKey, keyIdOf } from '@sitelens/config';

export { hashApiKey, keyIdOf };

/** Issued keys look like `sk_live_` followed by 32 base62 characters (about 190 random bits). */
export const KEY_PREFIX = 'sk_live_';
const RANDOM_LENGTH = 32;
/** Characters of a key kept in clear for `keys list` / `keys revoke`: `sk_live_` plus four. */
export const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 text: bytes at or above 248 (4 x 62) are dropped so no character is favoured. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export interface NewApiKey {
  key: string;
  hash: string;
  keyId: string;
  displayPrefix: string;
}

export function generateApiKey(): NewApiKey {
  const key = KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  const hash = hashApiKey(key);
  return { key, hash, keyId: keyIdOf(hash), displayPrefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** The key in an `Authorization: Bearer <key>` header, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}
