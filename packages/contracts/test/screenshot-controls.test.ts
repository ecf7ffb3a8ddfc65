import { isSameSite, screenshotCreateRequest, siteOf } from '../src';

/** The issues of a parse, as "path: message" strings. */
function problems(fields: Record<string, unknown>): string[] {
  const result = screenshotCreateRequest.safeParse({ url: 'https://shop.example.co.uk/item', ...fields });
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('screenshot capture controls: validation', () => {
  it('accepts every control in its documented shape', () => {
    const parsed = screenshotCreateRequest.parse({
      url: 'https://shop.example.co.uk/item',
      headers: { 'X-Tenant': 'acme' },
      cookies: [
        { name: 'a', value: '1' },
        {
          name: 'b',
          value: '2',
          domain: '.example.co.uk',
          path: '/',
          secure: true,
          httpOnly: true,
          sameSite: 'lax',
          expires: 1_900_000_000,
        },
      ],
      user_agent: 'Bot/1',
      http_auth: { username: 'ann', password: 'x' },
      locale: 'de-de',
      timezone: 'Europe/Berlin',
      geolocation: { latitude: 52.5, longitude: 13.4 },
      click_selector: '#accept',
      block_resources: ['image', 'font', 'image'],
      disable_js: true,
      ignore_https: true,
      print_mode: true,
      is_mobile: true,
      has_touch: false,
      is_landscape: true,
      styles: 'body{}',
      selector: '#card',
      omit_background: true,
    });
    expect(parsed.cookies?.[1]).toMatchObject({ http_only: true, same_site: 'Lax', domain: '.example.co.uk' });
    expect(parsed.locale).toBe('de-DE');
    expect(parsed.block_resources).toEqual(['image', 'font']);
    expect(problems({})).toEqual([]);
  });

  it('refuses a cookie for another site, or for a public suffix, naming the cookie', () => {
    expect(problems({ cookies: [{ name: 'a', value: '1', domain: 'other.com' }] })).toEqual([
      expect.stringMatching(/^cookies\.0\.domain: is for other\.com, another site than the target's/),
    ]);
    expect(
      problems({
        cookies: [
          { name: 'a', value: '1' },
          { name: 'b', value: '1', domain: 'co.uk' },
        ],
      }),
    ).toEqual([expect.stringMatching(/^cookies\.1\.domain: is for co\.uk/)]);
    expect(problems({ cookies: [{ name: 'a', value: '1', domain: 'shop.example.co.uk' }] })).toEqual([]);
    expect(problems({ cookies: [{ name: 'a b', value: '1' }] })).toEqual(['cookies.0.name: is not a valid cookie name']);
    expect(problems({ cookies: [{ name: 'a', value: 'x;y' }] })).toEqual(['cookies.0.value: must not contain control characters or ";"']);
  });

  it('refuses header names the browser owns or another field sets, and line breaks in values', () => {
    expect(problems({ headers: { Host: 'evil' } })).toEqual(['headers.Host: cannot be set here: the browser sets it from the URL']);
    expect(problems({ headers: { Cookie: 'a=1' } })).toEqual(['headers.Cookie: cannot be set here: use cookies']);
    expect(problems({ headers: { 'X-A': 'one\r\nX-B: two' } })).toEqual([
      'headers.X-A: must not contain control characters (line breaks included)',
    ]);
    expect(problems({ headers: { 'bad name': '1' } })).toEqual(['headers.bad name: is not a valid header name']);
    const big = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`X-${i}`, 'v'.repeat(4000)]));
    expect(problems({ headers: big })).toEqual(['headers: must hold at most 16 KiB of names and values in all']);
    const cookies = Array.from({ length: 5 }, (_, i) => ({ name: `c${i}`, value: 'v'.repeat(4000) }));
    expect(problems({ cookies })).toEqual(['cookies: must hold at most 16 KiB of names and values in all']);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-${i}`, '1']));
    expect(problems({ headers: many })).toEqual(['headers: must hold at most 50 headers']);
  });

  it('refuses combinations that cannot mean anything', () => {
    expect(problems({ selector: '#a', clip: { x: 0, y: 0, width: 10, height: 10 } })).toEqual([
      'clip: cannot be combined with selector (one or the other)',
    ]);
    expect(problems({ selector: '#a', full_page: true })).toEqual(['selector: cannot be combined with full_page']);
    expect(problems({ omit_background: true, format: 'jpg' })).toEqual(['omit_background: needs png or webp (jpeg has no transparency)']);
    expect(problems({ disable_js: true, scripts: 'x()' })).toEqual(['scripts: cannot run with disable_js']);
  });

  it('names each bad field', () => {
    expect(problems({ locale: 'not a locale!' })).toEqual(['locale: must be a language tag such as en-US or de-DE']);
    expect(problems({ timezone: 'Mars/Olympus' })).toEqual(['timezone: must be an IANA time zone such as Europe/Paris']);
    expect(problems({ geolocation: { latitude: 91, longitude: 0 } })).toEqual(['geolocation.latitude: must be between -90 and 90']);
    expect(problems({ block_resources: ['video'] })).toEqual(['block_resources.0: must be one of image, stylesheet, script, font, media']);
    expect(problems({ clip: { x: 0, y: 0, width: 0, height: 10 } })).toEqual(['clip.width: must be at least 1']);
    expect(problems({ http_auth: { username: 'a:b', password: '' } })).toEqual([
      'http_auth.username: must not contain ":" or control characters',
    ]);
    expect(problems({ styles: 'x'.repeat(64 * 1024 + 1) })).toEqual(['styles: must be at most 64 KiB']);
    expect(problems({ user_agent: 'a\nb' })).toEqual(['user_agent: must not contain control characters']);
    expect(problems({ click_selector: 'div[' })).toEqual(['click_selector: is not a valid CSS selector']);
  });
});

describe('html instead of url', () => {
  const issues = (fields: Record<string, unknown>) => {
    const result = screenshotCreateRequest.safeParse(fields);
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('takes exactly one of url and html', () => {
    expect(issues({ html: '<h1>Hi</h1>' })).toEqual([]);
    expect(issues({})).toEqual(['url: is required (or html: exactly one of url and html)']);
    expect(issues({ url: 'https://example.com/', html: '<h1>Hi</h1>' })).toEqual([
      'html: cannot be given with url (exactly one of url and html)',
    ]);
    expect(issues({ html: '' })).toEqual(['html: must not be empty']);
    expect(issues({ html: 'x'.repeat(512 * 1024 + 1) })).toEqual(['html: must be at most 512 KiB']);
  });

  it('refuses what is for the target site: html has none', () => {
    expect(
      issues({
        html: '<p>x</p>',
        headers: { 'X-A': '1' },
        http_auth: { username: 'a', password: 'b' },
        cookies: [{ name: 'a', value: '1' }],
      }),
    ).toEqual([
      'headers: needs url (rendered html has no site of its own)',
      'http_auth: needs url (rendered html has no site of its own)',
      'cookies: needs url (rendered html has no site of its own)',
    ]);
  });
});

describe('sites', () => {
  it('compares registrable domains; IPs and single labels by themselves', () => {
    expect(siteOf('a.b.example.co.uk')).toBe('example.co.uk');
    expect(isSameSite('https://cdn.example.com/x', 'http://www.example.com/')).toBe(true);
    expect(isSameSite('https://example.org/', 'https://example.com/')).toBe(false);
    expect(isSameSite('http://127.0.0.1:8080/', 'http://127.0.0.1:9090/')).toBe(true);
    expect(isSameSite('http://127.0.0.2/', 'http://127.0.0.1/')).toBe(false);
    expect(isSameSite('not a url', 'http://127.0.0.1/')).toBe(false);
  });
});
