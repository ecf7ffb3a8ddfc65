import { screenshotCreateRequest } from '@sitelens/contracts';
import { screenshotCacheKey } from '../src/screenshot-cache';

describe('screenshotCacheKey', () => {
  const parse = (fields: Record<string, unknown>) => screenshotCreateRequest.parse({ url: 'https://example.com/', ...fields });

  it('is the same for requests that make the same image, whatever their field order, ttl, timeout or delivery', () => {
    const base = screenshotCacheKey('key-1', parse({ headers: { 'X-A': '1', 'X-B': '2' }, cache_ttl: 60 }));
    expect(screenshotCacheKey('key-1', parse({ cache_ttl: 3600, timeout: 90, stream: true, headers: { 'X-B': '2', 'X-A': '1' } }))).toBe(
      base,
    );
    expect(screenshotCacheKey('key-1', parse({ headers: { 'X-A': '1', 'X-B': '2' }, webhook_url: 'https://hooks.example.com/' }))).toBe(
      base,
    );
  });

  it('differs by API key and by anything that changes the image', () => {
    const base = screenshotCacheKey('key-1', parse({}));
    expect(screenshotCacheKey('key-2', parse({}))).not.toBe(base);
    expect(screenshotCacheKey(undefined, parse({}))).not.toBe(base);
    expect(screenshotCacheKey('key-1', parse({ dark_mode: true }))).not.toBe(base);
    expect(screenshotCacheKey('key-1', parse({ cookies: [{ name: 'a', value: '1' }] }))).not.toBe(base);
    expect(screenshotCacheKey('key-1', parse({ url: 'https://example.com/other' }))).not.toBe(base);
  });
});
