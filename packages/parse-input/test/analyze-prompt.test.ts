import { AppError } from '@sitelens/contracts';
import { analyzePrompt, findUrls } from '../src';

describe('findUrls', () => {
  it.each([
    ['Extract prices from https://shop.example.com/products?page=2&sort=asc.', ['https://shop.example.com/products?page=2&sort=asc']],
    ['get example.com/products and tell me', ['https://example.com/products']],
    ['scrape www.example.co.uk', ['https://www.example.co.uk/']],
    ['Look at (https://en.wikipedia.org/wiki/Foo_(bar)), please', ['https://en.wikipedia.org/wiki/Foo_(bar)']],
    ['see [the docs](https://docs.example.io/start)!', ['https://docs.example.io/start']],
    [
      'https://a.example.com, https://b.example.com; and "https://c.example.com"',
      ['https://a.example.com/', 'https://b.example.com/', 'https://c.example.com/'],
    ],
    ['Scrape localhost:8080/test and 127.0.0.1:3000', ['http://localhost:8080/test', 'http://127.0.0.1:3000/']],
    ['example.com then https://example.com/ again and EXAMPLE.com', ['https://example.com/']],
    ['Mail me at someone@example.com about it', []],
    ['read README.md, data.json, e.g. notes.txt, version 1.2.3 and index.html', []],
    ['run it on localhost please', []],
    ['ftp://files.example.com/x is not the web', []],
    ['first b.example.org/x then https://a.example.org/y', ['https://b.example.org/x', 'https://a.example.org/y']],
  ])('%s', (prompt, expected) => {
    expect(findUrls(prompt).urls).toEqual(expected);
  });

  it('blanks the URLs out of the rest of the text', () => {
    const { rest } = findUrls('crawl https://example.com/crawl-json-table now');
    expect(rest).not.toContain('example.com');
    expect(rest).toContain('crawl');
    expect(rest).toContain('now');
  });
});

describe('analyzePrompt', () => {
  it.each([
    ['Crawl https://example.com/blog and list the post titles', 'crawl'],
    ['Get the titles of all pages on example.com', 'crawl'],
    ['Summarise the entire site docs.example.com', 'crawl'],
    ['Go through the whole website example.com', 'crawl'],
    ['Extract every page title from example.com', 'crawl'],
    ['Extract all the blog posts from example.com/blog', 'crawl'],
    ['List all articles on news.example.com', 'crawl'],
    ['Extract the product name and price from https://example.com/p/1', 'scrape'],
    ['Get the headline of example.com', 'scrape'],
    ['Parse example.com/products and get all products', 'scrape'],
    ['Extract the title from https://example.com/crawl/all-pages', 'scrape'],
  ])('%s -> %s', (prompt, action) => {
    expect(analyzePrompt(prompt).action).toBe(action);
  });

  it.each([
    ['Extract prices from example.com as CSV', 'csv', 'prompt'],
    ['Put the products from example.com in a spreadsheet', 'csv', 'prompt'],
    ['Make a table of the prices on example.com', 'csv', 'prompt'],
    ['Return the products on example.com as a markdown table', 'markdown', 'prompt'],
    ['Give me structured data about example.com/about', 'json', 'prompt'],
    ['Extract example.com/feed.json into CSV', 'csv', 'prompt'],
    ['Extract the team members from example.com/team', 'json', 'default'],
  ])('%s -> %s', (prompt, format, source) => {
    const analysis = analyzePrompt(prompt);
    expect(analysis.outputFormat).toBe(format);
    expect(analysis.outputFormatSource).toBe(source);
  });

  it('lets an explicit output_format win over prompt words', () => {
    const analysis = analyzePrompt('Export example.com as CSV', { outputFormat: 'markdown' });
    expect(analysis).toMatchObject({ outputFormat: 'markdown', outputFormatSource: 'request' });
  });

  it('returns every URL of the prompt', () => {
    expect(analyzePrompt('Compare https://a.example.com/x and b.example.com/y').urls).toEqual([
      'https://a.example.com/x',
      'https://b.example.com/y',
    ]);
  });

  it('rejects a prompt without a URL with 422', () => {
    let caught: unknown;
    try {
      analyzePrompt('Extract all the prices as CSV');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ code: 'UNPROCESSABLE', status: 422 });
    expect((caught as Error).message).toMatch(/no URL/);
  });
});
