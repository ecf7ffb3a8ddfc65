import type { Request } from 'express';

/**
 * The origin clients use to reach the gateway. PUBLIC_BASE_URL wins; otherwise the request's
 * Host (and X-Forwarded-Proto when Express trusts the proxy), so handed-out URLs are absolute.
 */
export function requestOrigin(req: Request, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl) return publicBaseUrl;
  const host = req.get('host') ?? 'localhost';
  return `${req.protocol}://${host}`;
}
