import { parseDocument, textOf } from '../src/content/dom';
import { removeChrome } from '../src/content/clean';
import { repliesShareThePostTemplate } from '../src/content/discussion';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { removeTitleRepeats } from '../src/content/title-repeats';
import { probeOf, quotedBlocks, restoreQuotedBlocks } from '../src/content/coverage';
import { readStructuredData } from '../src/content/structured-data';
import { createContentExtractor } from '../src/content/page-content';

const PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of care. ';

const block = (html: string): Element => parseDocument(`<body>${html}</body>`).body.firstElementChild!;
const text = (html: string) => createContentExtractor().extract(html, 'https://example.com/t', { text: true }).text ?? '';

const post = (body: string) =>
  `<div class="timeline-item"><div class="header"><a href="/u">someone</a></div>` +
  `<form class="vote"><button type="submit">12</button></form><div class="comment-body"><p>${body}</p></div></div>`;

/** A GitHub-Discussions-like page: the whole thread, opening post too, in one box named for the discussion. */
const BOXED_THREAD =
  `<body><h1>Connection pool exhausted under load</h1><div class="js-discussion">` +
  post('We run the API and a job worker in one process, and under load the pool runs out of connections every few hours.') +
  post('The early return exits the handler without committing, so that connection stays checked out in an open transaction.') +
  post('That was it: three handlers returned early inside a manual transaction; the pool has been flat for two days since.') +
  post('Adding for future readers: a LISTEN/NOTIFY listener on the same pool holds one connection for good as well.') +
  `</div></body>`;

const BLOG_WITH_COMMENTS =
  `<body><article><h1>Budget approved</h1><div class="entry"><p>${PROSE}</p><p>${PROSE}</p></div></article>` +
  '<div class="comments"><div class="comment"><p class="text">Great piece, thanks for writing it up so clearly today.</p></div>' +
  '<div class="comment"><p class="text">I disagree with every word of this, and here is why at some length.</p></div>' +
  '<div class="comment"><p class="text">Our branch library closed last year and nobody in town noticed at all.</p></div></div></body>';

describe('a thread whose opening post sits in the discussion box too', () => {
  const isBox = (element: Element) => /discussion|comment/.test(element.getAttribute('class') ?? '');

  it('is a thread: the first boxed post, longer than anything outside, is built like the replies', () => {
    expect(repliesShareThePostTemplate(parseDocument(BOXED_THREAD).body, isBox)).toBe(true);
  });

  it('keeps a blog’s comment section a comment section: the article outside the boxes is longer', () => {
    expect(repliesShareThePostTemplate(parseDocument(BLOG_WITH_COMMENTS).body, isBox)).toBe(false);
  });

  it('extracts every post, the short last reply with its vote button too', () => {
    const out = text(BOXED_THREAD);
    expect(out).toContain('We run the API');
    expect(out).toContain('Adding for future readers');
  });
});

describe('forms with nothing to fill in', () => {
  it('a vote button’s form does not take its post with it; a newsletter box with an email field goes', () => {
    const page = parseDocument(
      `<body><article><h1>Title</h1><p>${PROSE}</p><div class="reply"><form><button>▲</button></form><p>Short reply worth keeping, really.</p></div>` +
        `<div class="box"><p>Get our weekly letter.</p><form><input type="email" name="e"></form></div></article></body>`,
    );
    removeChrome(page);
    expect(textOf(page.body)).toContain('Short reply worth keeping');
    expect(textOf(page.body)).not.toContain('Get our weekly letter');
  });
});

describe('forum chrome by name: member ranks, signatures, tooltips', () => {
  it('removes a signature, a user title and a tooltip, and keeps the post', () => {
    const page = parseDocument(
      `<body><main><h1>Hot start</h1><div class="post"><span class="usertitle">Junior Member</span><p>${PROSE}</p>` +
        '<blockquote class="signature">TE20 1952 petrol/TVO and a garage full of bits.</blockquote>' +
        '<div role="tooltip">Save this question.</div></div></main></body>',
    );
    removeChrome(page);
    const out = textOf(page.body);
    expect(out).toContain('The council voted');
    expect(out).not.toContain('Junior Member');
    expect(out).not.toContain('garage full of bits');
    expect(out).not.toContain('Save this question');
  });

  it('keeps a long block named like a signature (a byline word is only trusted on short blocks)', () => {
    const page = parseDocument(`<body><main><h1>T</h1><div class="signature-dish"><p>${PROSE}${PROSE}${PROSE}</p></div></main></body>`);
    removeChrome(page);
    expect(textOf(page.body)).toContain('The council voted');
  });
});

describe('quote attributions and thread datelines', () => {
  it('drops the attribution line over a quote, in the quote’s box, and keeps the quoted words', () => {
    const root = block(
      `<div><p>${PROSE}</p><blockquote><div><cite><a href="/u/1">oldgreaser</a> wrote: ↑Tue Apr 16, 2024 8:02 pm</cite>The later Viton tipped ones are much better.</div></blockquote>` +
        '<blockquote><div class="postedby">Originally Posted by <strong>Fergie_Fred</strong></div><div>Try it with the throttle open.</div></blockquote></div>',
    );
    pruneBoilerplate(root);
    const out = textOf(root);
    expect(out).not.toContain('wrote:');
    expect(out).not.toContain('Originally Posted');
    expect(out).toContain('The later Viton tipped ones are much better.');
    expect(out).toContain('Try it with the throttle open.');
  });

  it('keeps a <cite> naming a work, and a "said:" line outside a quote', () => {
    expect(boilerplateReason(block('<cite><a href="/b">The Old Man and the Sea</a></cite>'))).toBeNull();
    expect(boilerplateReason(block('<p>The minister said: we will look again.</p>'))).toBeNull();
  });

  it('reads a dashed date and a day-and-time stamp without a year as datelines', () => {
    expect(boilerplateReason(block('<div>08-19-2023, 06:41 PM #1</div>'))).toBe('dateline');
    expect(boilerplateReason(block('<div>asked Mar 9 at 11:02</div>'))).toBe('dateline');
    expect(boilerplateReason(block('<p>We met in March and spoke at length about the plan for the school.</p>'))).toBeNull();
  });
});

describe('a gallery tile’s place and date', () => {
  const tile = (caption: string) =>
    `<div class="tile"><a href="/p/1"><img src="/1.jpg" alt="x"></a><div class="info"><p>${caption}</p><div>Dunkeld, November 2023</div></div></div>`;

  it('keeps the line under a photo beside its caption, and still drops an avatar’s date', () => {
    const root = block(
      `<div><p>${PROSE}</p><p>${PROSE}</p>${tile('Northbound sleeper passing Dunkeld just after midnight, snow on the platform edge.')}` +
        '<div class="card"><div>asked Mar 9 at 11:02</div><img src="/a.png" alt=""><a href="/u/2">dmitri_k</a></div></div>',
    );
    pruneBoilerplate(root);
    const out = textOf(root);
    expect(out).toContain('Dunkeld, November 2023');
    expect(out).not.toContain('asked Mar 9');
  });
});

describe('headings that repeat the title', () => {
  it('removes "Re: title" and the title again, keeps other headings', () => {
    const root = block(
      '<div><h1>Thread: TE20 hard to start</h1><h2>TE20 hard to start</h2><p>a</p><h2>Re: TE20 hard to start</h2><h2>RE: re: te20 HARD to start</h2><h2>Fixes that worked</h2></div>',
    );
    removeTitleRepeats(root, 'Thread: TE20 hard to start');
    expect(Array.from(root.querySelectorAll('h1, h2')).map(textOf)).toEqual(['Thread: TE20 hard to start', 'Fixes that worked']);
  });
});

describe('the passage the page’s JSON-LD quotes', () => {
  const INTRO = 'Nasu dengaku, eggplant broiled with a sweet miso glaze, is a Japanese classic and a satisfying main course.';
  const page = () =>
    parseDocument(
      `<head><script type="application/ld+json">{"@type":"Recipe","description":"${INTRO}"}</script></head>` +
        `<body><div class="head"><h1>Miso eggplant</h1><div class="note"><p>${INTRO}</p></div></div><div class="body"><p>${PROSE}</p></div></body>`,
    );

  it('reads a recipe’s or product’s description', () => {
    expect(readStructuredData(page()).description).toBe(INTRO);
  });

  it('puts the quoted paragraph back at the start when the content lacks it, once', () => {
    const probes = [probeOf(readStructuredData(page()).description)];
    const blocks = quotedBlocks(page(), probes);
    const root = block(`<div><p>${PROSE}</p></div>`);
    restoreQuotedBlocks(root, blocks);
    restoreQuotedBlocks(root, blocks);
    expect(textOf(root).startsWith('Nasu dengaku')).toBe(true);
    expect(textOf(root).split('Nasu dengaku').length).toBe(2);
  });

  it('ignores a description too short to check', () => {
    expect(probeOf('A pan.')).toBe('');
  });
});

describe('shop notices and reviews', () => {
  it('drops stock and service notices, even with a price, and keeps a price line', () => {
    expect(boilerplateReason(block('<div>In stock. Free delivery on orders over £50.</div>'))).toBe('shop notice');
    expect(boilerplateReason(block('<div>30-day returns</div>'))).toBe('shop notice');
    expect(boilerplateReason(block('<div>£149.00</div>'))).toBeNull();
    expect(boilerplateReason(block('<p>Free delivery was the reason the shop survived the first winter, its owner says.</p>'))).toBeNull();
  });

  it('removes microdata reviews and rating of a product, keeps a page that is itself a review', () => {
    const shop = parseDocument(
      `<body><main><h1>Jacket</h1><p>${PROSE}</p><div itemprop="aggregateRating">92% of 100</div>` +
        '<div itemprop="review" itemscope itemtype="https://schema.org/Review"><p>Survived a wet round.</p></div></main></body>',
    );
    removeChrome(shop);
    expect(textOf(shop.body)).not.toContain('92%');
    expect(textOf(shop.body)).not.toContain('Survived');
    const critic = parseDocument(
      `<body><article itemscope itemtype="https://schema.org/Review"><h1>Film review</h1><p>${PROSE}</p></article></body>`,
    );
    removeChrome(critic);
    expect(textOf(critic.body)).toContain('The council voted');
  });
});
