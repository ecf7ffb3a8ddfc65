import { errorMessage, type Watch, type WatchRecord, type WatchResult, type WatchResultRecord } from '@sitelens/contracts';
import { SIGNED_URL_TTL_SECONDS } from '@sitelens/storage';
import type { GatewayDeps } from '../deps';

const REDACTED = '[redacted]';

/**
 * A watch as clients see it: everything but its owner and the owner's plan, and with the page
 * context's secrets (header values, cookie values, the basic-auth password) redacted: they were
 * given once, and a listing is no place to read them back from.
 */
export function watchView(record: WatchRecord): Watch {
  const { owner: _owner, plan: _plan, ...watch } = record;
  return {
    ...watch,
    ...(watch.headers ? { headers: Object.fromEntries(Object.keys(watch.headers).map((name) => [name, REDACTED])) } : {}),
    ...(watch.cookies ? { cookies: watch.cookies.map((cookie) => ({ ...cookie, value: REDACTED })) } : {}),
    ...(watch.http_auth ? { http_auth: { username: watch.http_auth.username, password: REDACTED } } : {}),
  };
}

/**
 * A result as clients see it: the image's storage key becomes a freshly signed URL (15 minutes).
 * Images are kept as long as screenshots are (JOB_RETENTION); older results have none.
 */
export async function watchResultView(
  record: WatchResultRecord,
  deps: Pick<GatewayDeps, 'store' | 'config' | 'logger'>,
  origin: string,
): Promise<WatchResult> {
  const { image_key: key, ...result } = record;
  const fresh = Date.parse(record.executed_at) + deps.config.jobRetentionMs > Date.now();
  if (!key || !fresh) return { ...result, image_url: null };
  try {
    const signed = await deps.store.signedUrl(key, { ttlSeconds: SIGNED_URL_TTL_SECONDS, origin });
    return { ...result, image_url: signed.url };
  } catch (error) {
    deps.logger.warn({ err: errorMessage(error) }, 'could not sign a watch image URL');
    return { ...result, image_url: null };
  }
}
