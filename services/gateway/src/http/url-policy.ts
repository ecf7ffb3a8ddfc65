import type { Config } from '@sitelens/config';
import { assertPublicUrl, urlPolicyOf } from '@sitelens/egress';

/**
 * The gateway's early answer to a URL a request names: in hosted mode (ALLOW_PRIVATE_URLS=false)
 * a private, loopback, link-local or metadata address written as a literal or a localhost name is
 * 403 URL_BLOCKED at once, unless EGRESS_ALLOW lists it. Host names are checked by the workers on
 * the addresses they resolve to, at connect time, for every connection a fetch or a page makes
 * (the gateway never resolves or fetches).
 */
export function assertUrlAllowed(config: Pick<Config, 'allowPrivateUrls' | 'egressAllow'>, url: string): void {
  assertPublicUrl(url, urlPolicyOf(config));
}
