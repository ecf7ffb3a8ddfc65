import type { Config } from '@sitelens/config';
import { assertPublicUrl } from '@sitelens/web';

/**
 * The gateway's early answer to a URL a request names: in hosted mode (ALLOW_PRIVATE_URLS=false)
 * a private, loopback, link-local or metadata address written as a literal or a localhost name is
 * 403 URL_BLOCKED at once. Host names are checked by the workers on the addresses they resolve to,
 * at connect time, for every request a page makes (the gateway never resolves or fetches).
 */
export function assertUrlAllowed(config: Pick<Config, 'allowPrivateUrls'>, url: string): void {
  assertPublicUrl(url, { allowPrivate: config.allowPrivateUrls });
}
