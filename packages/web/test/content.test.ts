import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { createContentExtractor } from '../src/content/page-content';
import { parseDocument } from '../src/content/dom';
import { extractMainContent } from '../src/content/main-content';
import { removeChrome } from '../src/content/clean';
import { createMarkdownConverter } from '../src/content/markdown';
import { htmlToText } from '../src/content/text';
import { looksLikeJsShell } from '../src/content/js-shell';
import { decodeText } from '../src/decode-body';
import { PAGES_ROOT } from '@sitelens/testkit';

const fixtures = PAGES_ROOT;
const read = (name: string) => decodeText(readFileSync(path.join(fixtures, name)), 'text/html').text;
const expected = (name: string) => readFileSync(path.join(fixtures, name), 'utf8').trimEnd();

const ARTICLE_URL = 'https://news.example/science/tide-pools-heatwaves';
const extractor = createContentExtractor();

/** Chrome on the article page: none of it may reach the content. */
const ARTICLE_CHROME = [
  'We use cookies',
  'Accept all',
  'Manage preferences',
  'Skip to content',
  'Coastal Times</a>',
  'World',
  'Opinion',
  'Search',
  'Home',
  'Marine biology', // kicker
  'By Maria Lopez',
  '12 March 2024',
  'Share on Twitter',
  'Copy link',
  'Photo: J. Smith',
  'Science Weekly newsletter',
  'Sign up to receive',
  'Subscribe',
  'Enjoying this story?',
  'Read more:',
  'Related stories',
  'Seagrass returns',
  'Maria Lopez is the Coastal Times science correspondent',
  'Topics:',
  'Comments (2)',
  'seashell_sue',
  'Fascinating read',
  'Wembury',
  'Most read',
  'Harbour workers',
  '© 2024',
  'About us',
];

describe('main content of real-looking pages', () => {
  it('turns the news article into clean markdown: title, body, table, no chrome', () => {
    const content = extractor.extract(read('article.html'), ARTICLE_URL, { markdown: true });
    expect(content.markdown).toBe(expected('article.expected.md'));
    const markdown = content.markdown!;
    expect(markdown.startsWith('# How Tide Pools Survive Heatwaves\n')).toBe(true);
    expect(markdown).toContain('Sensors logged the water every ten minutes, day and night, for eleven weeks.');
    expect(markdown).toContain('[Falmouth Marine Lab](https://news.example/science/marine-lab)');
    expect(markdown).toContain(
      [
        '| Pool | Depth (cm) | Peak water temperature (°C) | Survival rate |',
        '| --- | --- | --- | --- |',
        '| North ledge | 12  | 31.4 | 64% |',
        '| Middle shelf | 35  | 26.8 | 88% |',
        '| Deep gully | 80  | 22.1 | 97% |',
      ].join('\n'),
    );
    expect(markdown).toContain('> Every pool is its own small climate');
    expect(markdown).toContain('- four pools under natural overhangs,');
    for (const chrome of ARTICLE_CHROME) expect(markdown).not.toContain(chrome);
  });

  it('keeps out chrome that plain Readability lets through, without losing body text', () => {
    const { document } = parseHTML(read('article.html'));
    const plain = new Readability(document as unknown as Document).parse()!.textContent!;
    const ours = extractor.extract(read('article.html'), ARTICLE_URL, { text: true }).text!;
    // The floor: plain Readability keeps the inline newsletter pitch and the author bio.
    expect(plain).toContain('Enjoying this story?');
    expect(plain).toContain('Maria Lopez is the Coastal Times science correspondent');
    expect(ours).not.toContain('Enjoying this story?');
    expect(ours).not.toContain('Maria Lopez is the Coastal Times science correspondent');
    const paragraphs = Array.from(parseDocument(read('article.html')).querySelectorAll('.story-body > p:not([class])'));
    expect(paragraphs).toHaveLength(5);
    for (const p of paragraphs) expect(ours).toContain((p.textContent ?? '').replace(/\s+/g, ' ').trim());
  });

  it('extracts a docs page (role=main, sidebar, feedback widget) with its table and code', () => {
    const content = extractor.extract(read('docs.html'), 'https://relay.example/docs/retries.html', { markdown: true });
    expect(content.markdown).toBe(expected('docs.expected.md'));
    expect(content.markdown).toContain('| `max_attempts` | 5   | Attempts before a delivery is marked failed |');
    expect(content.markdown).toContain('```\n[retries]\nmax_attempts = 8\nbase_delay = "5s"\n```');
    for (const chrome of ['Getting started', 'Pricing', 'Log in', 'Was this page helpful', 'Relay Inc.', 'Terms']) {
      expect(content.markdown).not.toContain(chrome);
    }
  });

  it('extracts a div-soup blog post (no semantic tags) without sidebar, share, comments', () => {
    const content = extractor.extract(read('div-post.html'), 'http://garage.example/2009/06/herald-part-3.html', {
      markdown: true,
    });
    expect(content.markdown).toBe(expected('div-post.expected.md'));
    expect(content.markdown).toContain('Total spend so far: £412.');
    expect(content.markdown).toContain('![Chassis](http://garage.example/2009/06/photos/chassis.jpg)');
    for (const chrome of [
      'Posted by Dave',
      'Share this',
      '3 Responses',
      'Leave a Reply',
      'Archives',
      'Blogroll',
      'Powered by',
      'The chassis after cleaning',
    ]) {
      expect(content.markdown).not.toContain(chrome);
    }
  });

  it('removes comment threads made of <article> elements (WordPress style), keeping the post', () => {
    const body = 'The harbour wall was rebuilt in 1884 after the great storm. '.repeat(12);
    const html = `<html><head><title>Harbour history</title></head><body>
      <article class="post"><h1>Harbour history</h1><div class="entry-content"><p>${body}</p><p>${body}</p></div></article>
      <div id="comments" class="comments-area"><h2 class="comments-title">2 thoughts</h2>
        <ol class="comment-list">
          <li><article class="comment-body"><footer class="comment-meta">Ann says:</footer><p>I remember my grandfather talking about the storm and the wall.</p></article></li>
          <li><article class="comment-body"><p>Lovely piece, thanks for writing it up.</p></article></li>
        </ol></div></body></html>`;
    const markdown = extractor.extract(html, 'https://harbour.example/history', { markdown: true }).markdown!;
    expect(markdown.startsWith('# Harbour history\n\nThe harbour wall was rebuilt in 1884')).toBe(true);
    for (const chrome of ['2 thoughts', 'Ann says', 'grandfather', 'Lovely piece']) expect(markdown).not.toContain(chrome);
    // The pre-cleaning alone already takes the thread out, whatever Readability would do.
    const document = parseDocument(html);
    removeChrome(document);
    expect(document.body.textContent).toContain('The harbour wall was rebuilt in 1884');
    expect(document.body.textContent).not.toContain('grandfather');
    expect(document.querySelector('article.post')).not.toBeNull();
  });

  it('keeps a heading whose wrapper has a layout-like class inside the article', () => {
    const content = extractor.extract(read('docs.html'), 'https://relay.example/docs/retries.html', { markdown: true });
    expect(content.markdown).toContain('\n## Settings\n');
  });

  it('falls back to the page <main> when Readability finds too little', () => {
    const html = `<html><head><title>Hours</title></head><body>
      <nav><a href="/">Home</a></nav>
      <main><h1>Opening hours</h1><ul><li>Monday: 9-17</li><li>Tuesday: 9-17</li><li>Saturday: closed</li></ul></main>
      <footer>Footer text</footer></body></html>`;
    const document = parseDocument(html);
    const main = extractMainContent(document, html, 'https://shop.example/hours', 'Hours');
    expect(main.source).toBe('fallback');
    expect(createMarkdownConverter()(main.root)).toBe('# Opening hours\n\n- Monday: 9-17\n- Tuesday: 9-17\n- Saturday: closed');
  });

  it('falls back to the cleaned body when the page has no main content markup', () => {
    const html = '<html><body><div class="cookie-notice">We use cookies</div><p>Just one short line.</p></body></html>';
    const content = extractor.extract(html, 'https://tiny.example/', { markdown: true, text: true });
    expect(content.markdown).toBe('Just one short line.');
    expect(content.text).toBe('Just one short line.');
  });

  it('gives cleaned HTML for the html format', () => {
    const content = extractor.extract(read('docs.html'), 'https://relay.example/docs/retries.html', { html: true });
    expect(content.contentHtml).toMatch(/^<h1>Configuring retries<\/h1>/);
    expect(content.contentHtml).toContain('<table>');
    expect(content.contentHtml).not.toContain('docs-sidebar');
    expect(content.markdown).toBeUndefined();
  });
});

describe('metadata and links', () => {
  it('reads every metadata field, with absolute URLs', () => {
    const { metadata, title } = extractor.extract(read('article.html'), ARTICLE_URL, {});
    expect(title).toBe('How Tide Pools Survive Heatwaves | Coastal Times');
    expect(metadata).toEqual({
      title: 'How Tide Pools Survive Heatwaves | Coastal Times',
      description: 'Marine biologists tracked three rock pools through the hottest summer on record.',
      language: 'en-GB',
      canonical: 'https://news.example/science/tide-pools-heatwaves',
      favicon: 'https://news.example/static/favicon-32.png',
      og_title: 'How tide pools survive heatwaves',
      og_description: 'Three rock pools, one record summer.',
      og_image: 'https://news.example/images/tide-pool-wide.jpg',
    });
  });

  it('leaves out fields a page does not declare and resolves against <base href>', () => {
    const html = `<html><head><base href="https://cdn.example/app/"><title> Spaced
      title </title><link rel="shortcut icon" href="fav.ico"></head>
      <body><a href="page">rel</a><a href="/root">root</a></body></html>`;
    const content = extractor.extract(html, 'https://site.example/x/y', {});
    expect(content.metadata).toEqual({ title: 'Spaced title', favicon: 'https://cdn.example/app/fav.ico' });
    expect(content.links).toEqual(['https://cdn.example/app/page', 'https://cdn.example/root']);
  });

  it('gives absolute http(s) links, each once, without fragments, in page order', () => {
    const { links } = extractor.extract(read('article.html'), ARTICLE_URL, {});
    expect(links).toEqual([
      'https://news.example/privacy',
      'https://news.example/',
      'https://news.example/world',
      'https://news.example/science',
      'https://news.example/opinion',
      'https://news.example/authors/maria-lopez',
      'https://twitter.com/intent/tweet?url=x',
      'https://www.facebook.com/sharer.php?u=x',
      'https://news.example/science/marine-lab',
      'https://news.example/science/limpets',
      'https://news.example/science/seagrass-return',
      'https://news.example/science/jellyfish-bloom',
      'https://news.example/topics/oceans',
      'https://news.example/topics/climate',
      'https://news.example/world/harbour-strike',
      'https://news.example/about',
      'https://news.example/contact',
    ]);
  });

  it('drops non-http links and in-page anchors', () => {
    const html = `<body><a href="#top">top</a><a href="mailto:a@b.c">m</a><a href="javascript:void(0)">j</a>
      <a href="ftp://files.example/x">f</a><a href="tel:+1">t</a><a href="/a#one">a1</a><a href="/a#two">a2</a>
      <a href="//other.example/p">proto-relative</a><a href="  /spaced  ">s</a><area href="/map"></body>`;
    expect(extractor.extract(html, 'https://site.example/start', {}).links).toEqual([
      'https://site.example/a',
      'https://other.example/p',
      'https://site.example/spaced',
      'https://site.example/map',
    ]);
  });
});

describe('markdown and text conversion', () => {
  const convert = createMarkdownConverter();
  const root = (html: string) => parseDocument(html).body;

  it('converts headings, emphasis, links, lists, code and tables', () => {
    const html = `<h2>Title</h2><p>Some <strong>bold</strong>, <em>italic</em>, <del>old</del> and <a href="https://x.example/">a link</a>.</p>
      <ol start="3"><li>three</li><li>four</li></ol><pre><code>let a = 1;</code></pre>
      <table><tr><th>A</th><th>B</th></tr><tr><td>1 | 2</td><td>3</td></tr></table>`;
    expect(convert(root(html))).toBe(
      [
        '## Title',
        '',
        'Some **bold**, _italic_, ~~old~~ and [a link](https://x.example/).',
        '',
        '3. three',
        '4. four',
        '',
        '```',
        'let a = 1;',
        '```',
        '',
        '| A   | B   |',
        '| --- | --- |',
        '| 1 \\| 2 | 3   |',
      ].join('\n'),
    );
  });

  it('drops inline data: images and javascript: links but keeps their text', () => {
    const html = '<p><img src="data:image/png;base64,AAAA" alt="x">Click <a href="javascript:go()">here</a></p>';
    expect(convert(root(html))).toBe('Click here');
  });

  it('gives plain text with paragraphs, list lines and tab-separated cells', () => {
    const html = `<h1>T</h1><p>One   two
      three.</p><ul><li>a</li><li>b</li></ul><table><tr><td>x</td><td>y</td></tr><tr><td>z</td><td>w</td></tr></table>
      <p>line<br>break</p><script>ignored()</script>`;
    expect(htmlToText(root(html))).toBe('T\n\nOne two three.\n\na\nb\n\nx\ty\nz\tw\n\nline\nbreak');
  });
});

describe('looksLikeJsShell', () => {
  it('spots the single-page-app shell fixture', () => {
    expect(looksLikeJsShell(read('js-shell.html'))).toBe(true);
  });

  it.each([
    ['an empty body with a script bundle', '<html><body><script src="/app.js"></script></body></html>'],
    ['an empty Next.js mount', '<html><body><div id="__next"></div><script src="/_next/main.js"></script></body></html>'],
    ['a noscript notice and nothing else', '<html><body><noscript>Please enable JavaScript to continue.</noscript></body></html>'],
    [
      'an empty mount point inside a little static chrome',
      `<html><body><header>${'Brand navigation links '.repeat(12)}</header><div id="app"></div><script src="/a.js"></script></body></html>`,
    ],
  ])('is true for %s', (_label, html) => {
    expect(looksLikeJsShell(html)).toBe(true);
  });

  it.each([
    ['a server-rendered article', read('article.html')],
    ['a static page without scripts', '<html><body><p>Hello, this is a tiny static page.</p></body></html>'],
    [
      'a server-rendered app',
      `<html><body><div id="root"><h1>Shop</h1><p>${'Product text. '.repeat(30)}</p></div><script src="/a.js"></script></body></html>`,
    ],
  ])('is false for %s', (_label, html) => {
    expect(looksLikeJsShell(html)).toBe(false);
  });

  it('accepts a parsed document and leaves it untouched', () => {
    const document = parseDocument(read('js-shell.html'));
    const before = document.toString();
    expect(looksLikeJsShell(document)).toBe(true);
    expect(document.toString()).toBe(before);
  });
});
