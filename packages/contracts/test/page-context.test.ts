import { acceptLanguageOf, cookieHeaderFor, languageListOf, pageContextOf, scrapeQuery, siteHeadersFor } from '../src';

describe('page context helpers', () => {
  const target = 'https://shop.example.co.uk/cart';
  const now = 1_800_000_000;

  it('sends a host-only cookie to the target host only, a domain cookie to its subdomains too', () => {
    const context = {
      targetUrl: target,
      cookies: [
        { name: 'host', value: '1' },
        { name: 'dom', value: '2', domain: '.example.co.uk' },
      ],
    };
    expect(cookieHeaderFor('https://shop.example.co.uk/', context, now)).toBe('host=1; dom=2');
    expect(cookieHeaderFor('https://static.example.co.uk/a.css', context, now)).toBe('dom=2');
    expect(cookieHeaderFor('https://other.co.uk/', context, now)).toBeUndefined();
    // A suffix that is not a label boundary is another host.
    expect(cookieHeaderFor('https://badexample.co.uk/', context, now)).toBeUndefined();
  });

  it('honours path prefixes, secure and expiry', () => {
    const context = {
      targetUrl: target,
      cookies: [
        { name: 'docs', value: 'd', path: '/docs' },
        { name: 'safe', value: 's', secure: true },
        { name: 'old', value: 'o', expires: now - 1 },
        { name: 'later', value: 'l', expires: now + 60 },
      ],
    };
    expect(cookieHeaderFor('https://shop.example.co.uk/docs/a', context, now)).toBe('docs=d; safe=s; later=l');
    expect(cookieHeaderFor('https://shop.example.co.uk/docsx', context, now)).toBe('safe=s; later=l');
    expect(cookieHeaderFor('http://shop.example.co.uk/docs', context, now)).toBe('docs=d; later=l');
  });

  it('gives headers and basic auth to the target site only, lower-cased', () => {
    const context = { targetUrl: target, headers: { 'X-Token': 't' }, httpAuth: { username: 'u', password: 'p' } };
    expect(siteHeadersFor('https://cdn.example.co.uk/x', context)).toEqual({ 'x-token': 't', authorization: 'Basic dTpw' });
    expect(siteHeadersFor('https://example.com/x', context)).toEqual({});
    expect(siteHeadersFor('https://x.test/', { targetUrl: undefined, headers: { a: 'b' } })).toEqual({});
  });

  it('words Accept-Language from a locale', () => {
    expect(acceptLanguageOf('de-CH')).toBe('de-CH,de;q=0.9');
    expect(acceptLanguageOf('fr')).toBe('fr');
    expect(languageListOf('de-CH')).toBe('de-CH,de');
  });

  it('reads the scrape query: JSON text, repeated selectors, booleans as words; no context when none is set', () => {
    const query = scrapeQuery.parse({
      url: 'https://example.com/',
      headers: '{"X-A":"1"}',
      cookies: '[{"name":"s","value":"v","httpOnly":true}]',
      wait_for_selectors: ['main', '#late'],
      block_cookies: 'true',
    });
    expect(pageContextOf(query)).toEqual({
      targetUrl: 'https://example.com/',
      headers: { 'X-A': '1' },
      cookies: [{ name: 's', value: 'v', http_only: true }],
      blockCookies: true,
      waitForSelectors: ['main', '#late'],
    });
    expect(scrapeQuery.parse({ url: 'https://example.com/', wait_for_selectors: 'main' }).wait_for_selectors).toEqual(['main']);
    expect(pageContextOf(scrapeQuery.parse({ url: 'https://example.com/' }))).toBeUndefined();
  });
});
