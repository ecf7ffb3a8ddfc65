import robotsParser from 'robots-parser';
import { MAX_ROBOTS_PATTERN, MAX_ROBOTS_RULE_CHARS, MAX_ROBOTS_RULES, readRobots, robotsAllow } from '../src/robots-rules';
import { parseRobots } from '../src/robots';

const ORIGIN = 'https://site.example';

const FILE = `
User-agent: *
Disallow: /private/
Allow: /private/open.html
Disallow: /*.pdf$
Disallow: /search?q=*
Allow: /search?q=ok
Disallow: /a*b*c
Disallow: /exact$
Disallow: /caf%c3%a9/
Disallow: /café-raw/
Allow: /tie
Disallow: /tie
Disallow: /**/deep
Disallow: /fish*

User-agent: OtherBot/2.1
User-agent: ThirdBot
Disallow: /
Allow: /public$
`;

const PATHS = [
  '/',
  '/private/',
  '/private/x',
  '/private/open.html',
  '/doc.pdf',
  '/doc.pdf?x',
  '/search?q=a',
  '/search?q=ok',
  '/search',
  '/abc',
  '/a/b/c',
  '/acb',
  '/axbxcx',
  '/exact',
  '/exact/',
  '/café/',
  '/caf%C3%A9/',
  '/caf%c3%a9/x',
  '/café-raw/',
  '/tie',
  '/x/y/deep',
  '/deep',
  '/fish',
  '/fishing',
  '/Fish',
  '/public',
  '/public/x',
];

describe('robots rules', () => {
  it.each(['Sitelens', 'OtherBot', 'thirdbot'])('decide as robots-parser does for %s', (agent) => {
    const reference = robotsParser(`${ORIGIN}/robots.txt`, FILE);
    const ours = parseRobots(`${ORIGIN}/robots.txt`, FILE, agent);
    for (const path of PATHS) {
      const url = `${ORIGIN}${path}`;
      expect([path, ours.isAllowed(url)]).toEqual([path, reference.isAllowed(url, agent) !== false]);
    }
  });

  it('leaves other origins alone', () => {
    expect(parseRobots(`${ORIGIN}/robots.txt`, 'User-agent: *\nDisallow: /').isAllowed('https://other.example/x')).toBe(true);
  });

  it('keeps at most MAX_ROBOTS_RULES rules of the group that applies, none longer than MAX_ROBOTS_PATTERN', () => {
    const others = Array.from({ length: 20_000 }, (_, i) => `Disallow: /other-${i}`).join('\n');
    const ours = Array.from({ length: 5_000 }, (_, i) => `Disallow: /p${i}$`).join('\n');
    const long = `Disallow: /${'x'.repeat(MAX_ROBOTS_PATTERN)}`;
    const parsed = readRobots(`User-agent: OtherBot\n${others}\n\nUser-agent: *\n${long}\n${ours}\n`, 'Sitelens');
    expect(parsed.rules).toHaveLength(MAX_ROBOTS_RULES);
    expect(parsed.rules.every((rule) => rule.length <= MAX_ROBOTS_PATTERN)).toBe(true);
    expect(robotsAllow(parsed, '/p999')).toBe(false);
    expect(robotsAllow(parsed, '/p1000')).toBe(true);
  });

  it('checks links against a 500 KB wildcard bomb quickly', () => {
    // One rule as long as allowed, repeated: robots-parser spent time in its length times the path's.
    const rule = `Disallow: /${'*a'.repeat(MAX_ROBOTS_PATTERN / 2 - 2)}x`;
    const lines: string[] = ['User-agent: *'];
    for (let size = 0; size + rule.length < 490 * 1024; size += rule.length + 1) lines.push(rule);
    const body = lines.join('\n');
    expect(readRobots(body, 'Sitelens').rules.reduce((sum, r) => sum + r.length, 0)).toBeLessThanOrEqual(MAX_ROBOTS_RULE_CHARS);
    const rules = parseRobots(`${ORIGIN}/robots.txt`, body);
    const path = `/${'a'.repeat(2_000)}`;
    const started = process.hrtime.bigint();
    for (let i = 0; i < 100; i++) expect(rules.isAllowed(`${ORIGIN}${path}`)).toBe(true);
    expect(rules.isAllowed(`${ORIGIN}${path}x`)).toBe(false);
    // Linear: at most 64 KiB of rules, each part found once in the path. robots-parser took seconds per check.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(10_000);
  });
});
