import { normalizeUrl } from '../src/url-normalize';

describe('normalizeUrl', () => {
  it.each([
    ['HTTP://Example.COM:80/a/b', 'http://example.com/a/b'],
    ['https://example.com:443/', 'https://example.com/'],
    ['https://example.com:8443/', 'https://example.com:8443/'],
    ['https://example.com/page#section', 'https://example.com/page'],
    ['https://example.com/p?b=2&a=1&a=0', 'https://example.com/p?a=0&a=1&b=2'],
    ['https://example.com/p?utm_source=x&utm_medium=y&id=3&fbclid=z&gclid=q', 'https://example.com/p?id=3'],
    ['https://example.com/p?utm_campaign=only', 'https://example.com/p'],
    ['https://example.com/a/./b/../c', 'https://example.com/a/c'],
    ['https://example.com./x', 'https://example.com/x'],
    ['https://example.com', 'https://example.com/'],
  ])('%s -> %s', (input, output) => {
    expect(normalizeUrl(input)).toBe(output);
  });

  it('resolves against a base', () => {
    expect(normalizeUrl('../up?z=1#f', 'https://example.com/a/b/c')).toBe('https://example.com/a/up?z=1');
  });

  it.each(['mailto:a@b.example', 'ftp://example.com/x', 'javascript:void(0)', 'not a url', 'data:text/plain,x'])(
    'gives null for %s',
    (input) => {
      expect(normalizeUrl(input)).toBeNull();
    },
  );
});
