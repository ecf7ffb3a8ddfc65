import picomatch from 'picomatch';
import { compilePathGlobs } from '../src';
import { CrawlScope } from '../src/crawl-scope';

const PATHS = [
  '/',
  '/blog',
  '/blog/',
  '/blog/x',
  '/blog/x/',
  '/blog/x/y',
  '/blog/x.html',
  '/blogx',
  '/posts/first-post',
  '/posts/first-',
  '/posts/fourth-post.html',
  '/a/b',
  '/a/x/b',
  '/a/x/y/b',
  '/ab',
  '/a*',
  '/abc',
  '/axc',
  '/a/c',
  '/b',
  '/d',
  '/a/.hidden',
  '/c/d',
  '/docs/v1/api',
  '/docs/v2/api',
  '/docs/v10/api',
  '/x',
  '/a/x',
];
const GLOBS = [
  '/blog/*',
  '/blog/**',
  '/blog/*.html',
  '/posts/first-*',
  '/posts/fourth-post.html',
  '/a/**/b',
  '/a?c',
  '/[abc]',
  '/[a-c]x',
  '/{a,b}/c',
  '/{a,{b,c}}',
  '/a\\*',
  '/a*',
  '/*',
  '/**',
  '/a/*',
  '/docs/v[0-9]/*',
  '/docs/{v1,v10}/api',
  '/*/x',
  '/c/*',
];

describe('compilePathGlobs', () => {
  it.each(GLOBS)('agrees with picomatch (dot: true) on %s', (glob) => {
    const ours = compilePathGlobs([glob]);
    const theirs = picomatch(glob, { dot: true });
    for (const path of PATHS) expect([path, ours(path)]).toEqual([path, theirs(path)]);
  });

  it('differs from picomatch where documented: "/**/x" also matches "/x", "[!a]" negates', () => {
    expect(compilePathGlobs(['/**/x'])('/x')).toBe(true);
    expect(compilePathGlobs(['/**/x'])('/a/b/x')).toBe(true);
    expect(compilePathGlobs(['/[!a]'])('/b')).toBe(true);
    expect(compilePathGlobs(['/[!a]'])('/a')).toBe(false);
    expect(compilePathGlobs(['/[!a]'])('//')).toBe(false);
  });

  it('takes unbalanced or odd syntax literally instead of failing', () => {
    expect(compilePathGlobs(['/a{b'])('/a{b')).toBe(true);
    expect(compilePathGlobs(['/a[b'])('/a[b')).toBe(true);
    expect(compilePathGlobs(['/[z-a]'])('/-')).toBe(true);
    expect(compilePathGlobs(['/a}b,c'])('/a}b,c')).toBe(true);
    expect(compilePathGlobs(['/(a|b)+$'])('/(a|b)+$')).toBe(true);
  });

  it('matches a catastrophic glob against a long path in linear time', () => {
    const evil = compilePathGlobs(['/*a*a*a*a*a*a*a*ax', '/**a**a**a**a**a**a**x']);
    const path = `/${'a'.repeat(20_000)}`;
    // Backtracking engines take minutes here; the budget allows for a loaded machine.
    const started = process.hrtime.bigint();
    expect(evil(path)).toBe(false);
    expect(evil(`${path}x`)).toBe(true);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5_000);
  });

  it('matches any of 50 globs of 256 characters', () => {
    const globs = Array.from({ length: 50 }, (_, i) => `/${'*a'.repeat(125)}${i}`.slice(0, 256));
    const match = compilePathGlobs([...globs, '/ok/*']);
    expect(match('/ok/page')).toBe(true);
    expect(match(`/${'a'.repeat(5_000)}`)).toBe(false);
  });

  it('is what CrawlScope follows with', () => {
    const scope = new CrawlScope('https://example.com/', { patterns: ['blog/*', '/docs/**'] });
    expect(scope.follows('https://example.com/blog/post')).toBe(true);
    expect(scope.follows('https://example.com/docs')).toBe(true);
    expect(scope.follows('https://example.com/about')).toBe(false);
  });
});
