/**
 * On every answer of the public port, errors, files and docs included: no content sniffing (an
 * image or JSON is never run as HTML), and no Referer leaking a signed file URL or a job id onward.
 */
export const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' } as const;

/** The same headers as raw HTTP/1.1 header lines, for answers written straight to a socket. */
export const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');
