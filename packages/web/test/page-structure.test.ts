import { parseDocument, textOf } from '../src/content/dom';
import { removeChrome } from '../src/content/clean';
import { repliesShareThePostTemplate } from '../src/content/discussion';
import { isHiddenSlide } from '../src/content/hidden-slides';
import { isSiteNameHeading } from '../src/content/site-name';
import { declaresDiscussion, readStructuredData } from '../src/content/structured-data';
import { createContentExtractor } from '../src/content/page-content';

const PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of care. ';

const reply = (kind: string, text: string) =>
  `<div class="thing ${kind}"><p class="tagline"><a class="author" href="/u/x">someone</a></p>` +
  `<form class="usertext"><input type="hidden" name="id" value="1"><div class="md"><p>${text}</p></div></form></div>`;

/** An old-Reddit-style thread: the post and its replies in one template, the replies named "comment". */
const THREAD =
  `<body><div role="main"><div class="sitetable">${reply('link self', 'My bench top keeps getting a hollow in the middle when I plane it by hand.')}</div>` +
  `<div class="commentarea">${reply('comment', 'A No. 5 is short for a 6 ft top; it follows the hollow instead of bridging it.')}` +
  `${reply('comment', 'Check the sole of the plane: older ones are often convex from decades of use.')}` +
  `${reply('comment', 'Pencil scribbles across the top show where the plane has actually cut.')}</div></div></body>`;

/** A blog post with a comment section in its own template. */
const BLOG =
  `<body><article><h1>Budget approved</h1><div class="entry-content"><p>${PROSE}</p><p>${PROSE}</p></div></article>` +
  '<ol class="comment-list"><li class="comment"><div class="comment-content"><p>Great piece, thanks for writing it up so clearly.</p></div></li>' +
  '<li class="comment"><div class="comment-content"><p>I disagree with every word of this, and here is why at length.</p></div></li>' +
  '<li class="comment"><div class="comment-content"><p>Our branch library closed last year and nobody noticed.</p></div></li></ol></body>';

const isComment = (element: Element) => /\bcomment\b/.test(element.getAttribute('class') ?? '');

describe('discussion threads: replies are the content', () => {
  it('tells a thread (replies in the post’s template) from an article’s comment section', () => {
    expect(repliesShareThePostTemplate(parseDocument(THREAD).body, isComment)).toBe(true);
    expect(repliesShareThePostTemplate(parseDocument(BLOG).body, isComment)).toBe(false);
  });

  it('keeps a thread’s replies, even inside forms of hidden fields, and still drops a blog’s comments', () => {
    const thread = parseDocument(THREAD);
    removeChrome(thread);
    const text = textOf(thread.body);
    expect(text).toContain('hollow in the middle');
    expect(text).toContain('convex from decades of use');
    expect(text).toContain('Pencil scribbles');
    const blog = parseDocument(BLOG);
    removeChrome(blog);
    expect(textOf(blog.body)).not.toContain('Great piece');
  });

  it('believes a page that declares itself a Q&A page or a forum posting', () => {
    const qa = parseDocument(
      '<head><script type="application/ld+json">{"@context":"https://schema.org","@type":"QAPage","mainEntity":{"@type":"Question","name":"Why?"}}</script></head>' +
        `<body><div class="question"><p>${PROSE}</p></div><ul class="comments"><li class="comment"><span>Does it still happen with -n?</span></li></ul></body>`,
    );
    expect(declaresDiscussion(readStructuredData(qa))).toBe(true);
    removeChrome(qa);
    expect(textOf(qa.body)).toContain('Does it still happen with -n?');
    const micro = parseDocument('<body><div itemscope itemtype="https://schema.org/DiscussionForumPosting"><p>Hi</p></div></body>');
    expect(declaresDiscussion(readStructuredData(micro))).toBe(true);
    const article = parseDocument(
      '<head><script type="application/ld+json">{"@type":"NewsArticle","articleBody":"Text."}</script></head><body></body>',
    );
    expect(declaresDiscussion(readStructuredData(article))).toBe(false);
    expect(readStructuredData(article).articleBody).toBe('Text.');
  });

  it('reads nothing from broken JSON-LD', () => {
    const broken = parseDocument('<head><script type="application/ld+json">{"@type": "QAPage",</script></head><body></body>');
    expect(readStructuredData(broken).types.size).toBe(0);
  });
});

describe('carousel slides hidden off screen', () => {
  const slides =
    '<div class="slides"><div class="slide" aria-hidden="false"><img src="/1.jpg" alt=""><p>The aurora over a barn in Kent.</p></div>' +
    '<div class="slide" aria-hidden="true"><img src="/2.jpg" alt=""><p>Spectators on a pier in Michigan.</p></div>' +
    '<div class="slide" style="display: none"><img src="/3.jpg" alt=""><p>Lavender fields in Provence.</p></div></div>' +
    '<div class="modal" aria-hidden="true"><p>Sign in to continue</p></div>';

  it('counts a hidden element as a slide only beside a shown sibling of its kind', () => {
    const document = parseDocument(`<body>${slides}</body>`);
    const [, second, third] = Array.from(document.querySelectorAll('.slide'));
    expect(isHiddenSlide(second!)).toBe(true);
    expect(isHiddenSlide(third!)).toBe(true);
    expect(isHiddenSlide(document.querySelector('.modal')!)).toBe(false);
  });

  it('keeps every slide and still drops a lone hidden element', () => {
    const document = parseDocument(`<body><main><h1>Northern lights</h1>${slides}</main></body>`);
    removeChrome(document);
    const text = textOf(document.body);
    expect(text).toContain('Michigan');
    expect(text).toContain('Provence');
    expect(text).not.toContain('Sign in');
  });
});

describe('captions named by class on a page told in its captions', () => {
  it('keeps carousel captions (a class, not a figcaption) when they outweigh the prose', () => {
    const slide = (n: number) =>
      `<div class="gallery__slide"><img src="/${n}.jpg" alt=""><div class="gallery__caption"><span>Picture ${n}: the lights reflected in a lake near Banff, seen from the shore after midnight on Friday.</span></div></div>`;
    const document = parseDocument(`<body><main><h1>Aurora</h1><p>Pictures from around the world.</p>${slide(1)}${slide(2)}</main></body>`);
    removeChrome(document);
    expect(textOf(document.body)).toContain('Picture 2: the lights');
  });
});

describe('the page title', () => {
  it('knows a banner h1 that only names the site (the topic is an h2, the title says both)', () => {
    const forum = parseDocument(
      '<head><title>Carb flooding on a T120 - Classic Twins Forum</title></head><body><div class="headerbar" role="banner"><h1>Classic Twins Forum</h1></div>' +
        '<div role="main"><h2 class="topic-title">Carb flooding on a T120</h2><p>Hi all.</p></div></body>',
    );
    expect(isSiteNameHeading(forum.querySelector('h1')!, forum)).toBe(true);
    // The page's own title in its article header, though the document title also names a section.
    const docs = parseDocument(
      '<head><title>AbortSignal: timeout() - Web APIs | MDN</title></head><body><main><article><header><h1>AbortSignal: timeout()</h1></header>' +
        '<h2>Web APIs</h2></article></main></body>',
    );
    expect(isSiteNameHeading(docs.querySelector('h1')!, docs)).toBe(false);
  });

  it('takes the topic, not the site name, as the title of a forum page', () => {
    const html =
      '<html><head><title>Carb flooding on a T120 - Classic Twins Forum</title></head><body><div class="headerbar" role="banner"><h1>Classic Twins Forum</h1></div>' +
      `<div role="main"><h2 class="topic-title">Carb flooding on a T120</h2><p>${PROSE}</p><p>${PROSE}</p></div></body></html>`;
    const { text } = createContentExtractor().extract(html, 'https://forum.example/t/1', { text: true });
    expect(text).not.toContain('Classic Twins Forum');
    expect(text).toContain('Carb flooding on a T120');
  });
});

describe('the standfirst under the headline', () => {
  it('stays: it is the article’s own text, not chrome', () => {
    const html =
      '<body><article><div class="header"><h1>Otters return</h1><p class="c-story__standfirst">Flooded shafts could hold a day of the region’s electricity, engineers say.</p>' +
      `<div>By Jane Doe</div></div><div class="body"><p>${PROSE}</p></div></article></body>`;
    const { text } = createContentExtractor().extract(html, 'https://news.example/otters', { text: true });
    expect(text).toContain('Flooded shafts could hold a day');
    expect(text).toContain('Otters return');
  });
});
