import { REDACTED, redactJobData } from '../src/http/redact-job-data';

describe('redactJobData (what the queue dashboard shows of job data)', () => {
  it('replaces secret-bearing fields at any depth, arrays included, and keeps the rest', () => {
    const data = {
      request: { url: 'https://example.com/', webhook_url: 'https://hooks.example.com/', webhook_headers: { Authorization: 'Bearer t' } },
      pages: [{ url: 'https://a.example/', http_auth: { username: 'u', password: 'p' } }],
      cookies: [{ name: 'session', value: 'v' }],
      owner: 'abcdef0123456789',
      timeoutSeconds: 30,
      empty: null,
    };
    expect(redactJobData(data)).toEqual({
      request: { url: 'https://example.com/', webhook_url: 'https://hooks.example.com/', webhook_headers: REDACTED },
      pages: [{ url: 'https://a.example/', http_auth: REDACTED }],
      cookies: REDACTED,
      owner: 'abcdef0123456789',
      timeoutSeconds: 30,
      empty: null,
    });
  });

  it('leaves the job data itself untouched, and absent fields absent', () => {
    const data = { request: { url: 'https://example.com/', webhook_headers: { 'X-Token': 't' } }, password: undefined };
    const shown = redactJobData(data) as Record<string, any>;
    expect(data.request.webhook_headers).toEqual({ 'X-Token': 't' });
    expect(shown.password).toBeUndefined();
    expect(redactJobData('text')).toBe('text');
  });
});
