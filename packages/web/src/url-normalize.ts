/**
 * One spelling per page, so the crawler never fetches the same thing twice: lowercase host, no
 * fragment, no default port, tracking parameters dropped, the rest of the query sorted.
 */

const TRACKING =
  /^(utm_[a-z_]+|gclid|dclid|gbraid|wbraid|fbclid|msclkid|mc_cid|mc_eid|yclid|igshid|_ga|_gl|_hsenc|_hsmi|mkt_tok|ref_src|oly_enc_id|oly_anon_id|vero_id|spm)$/i;

/** The normalised form of an http(s) URL (resolved against `base`), or null for anything else. */
export function normalizeUrl(input: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.hostname = url.hostname.replace(/\.$/, '');
  const params = [...url.searchParams].filter(([name]) => !TRACKING.test(name));
  params.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  url.search = params.length ? new URLSearchParams(params).toString() : '';
  return url.href;
}
