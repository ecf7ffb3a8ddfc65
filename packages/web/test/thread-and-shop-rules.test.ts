import { parseDocument, textOf } from '../src/content/dom';
import { removeChrome } from '../src/content/clean';
import { repliesShareThePostTemplate } from '../src/content/discussion';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { removeTitleRepeats } from '../src/content/title-repeats';
import { probeOf, quotedBlocks, restoreQuotedBlocks } from '../src/content/coverage';
import { readStructuredData } from '../src/content/structured-data';
import { isHiddenSlide } from '../src/content/hidden-slides';
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
    expect(boilerplateReason(block('<div>Free delivery on orders over £50.</div>'))).toBe('shop notice');
    expect(boilerplateReason(block('<div>Ships within 2-3 business days</div>'))).toBe('shop notice');
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

describe('review fixes: ordinary prose that looks like chrome stays', () => {
  const article = (inner: string) =>
    `<html><head><title>Valley notes</title></head><body><article><h1>Valley notes</h1><p>${PROSE}</p>${inner}<p>${PROSE}</p></article></body></html>`;

  it('keeps stock status (restock watches follow it), and "Ships in" without a time', () => {
    for (const line of ['In stock', 'Out of stock', 'Sold out', 'Only 2 left in size 9', 'Pre-order now']) {
      expect(boilerplateReason(block(`<div>${line}</div>`))).toBeNull();
    }
    expect(boilerplateReason(block('<p>Ships in the harbour broke their moorings.</p>'))).toBeNull();
    expect(text(article('<p>Ships in the harbour broke their moorings.</p>'))).toContain('Ships in the harbour broke their moorings.');
  });

  it('drops only an attribution line over a quote, not a quotation after "said:"', () => {
    const out = text(article('<blockquote><p>The minister said: we will not raise taxes this year.</p></blockquote>'));
    expect(out).toContain('The minister said: we will not raise taxes this year.');
    const root = block(`<div><p>${PROSE}</p><blockquote><div>Jen said: ↑</div><p>Quoted words stay here.</p></blockquote></div>`);
    pruneBoilerplate(root);
    expect(textOf(root)).not.toContain('Jen said');
  });

  it('reads copyright only from a line that opens with it or reserves rights, never from a list', () => {
    expect(boilerplateReason(block('<p>Nike argued that the swoosh is one of its registered trademarks and sued.</p>'))).toBeNull();
    expect(boilerplateReason(block('<p>Clause (c) 2019 amendments require the landlord to give notice.</p>'))).toBeNull();
    expect(boilerplateReason(block('<p>© 2024 Example Ltd</p>'))).toBe('copyright');
    expect(boilerplateReason(block('<p>Example Ltd. All rights reserved.</p>'))).toBe('copyright');
    expect(boilerplateReason(block('<ul><li>© 2024 text of the licence</li><li>Other clause</li></ul>'))).toBeNull();
    const out = text(
      article(
        '<p>Nike argued that the swoosh is one of its registered trademarks and sued.</p><p>Clause (c) 2019 amendments require the landlord to give notice.</p>',
      ),
    );
    expect(out).toContain('registered trademarks and sued');
    expect(out).toContain('Clause (c) 2019 amendments');
  });

  it('keeps a guide’s "Shipping and returns" section; a shop page’s goes', () => {
    const guide = text(
      `<html><head><title>How to sell</title></head><body><article><h1>How to sell</h1><p>${PROSE}</p><h2>Shipping and returns</h2>` +
        `<p>Offer calculated shipping so that buyers abroad see a fair price.</p><h2>Pricing</h2><p>${PROSE}</p></article></body></html>`,
    );
    expect(guide).toContain('Offer calculated shipping');
    const shop = text(
      `<html><head><title>Jacket</title><script type="application/ld+json">{"@type":"Product","name":"Jacket"}</script></head><body><main><h1>Jacket</h1><p>${PROSE}</p>` +
        `<h2>Shipping and returns</h2><p>We ship worldwide from our warehouse within two days.</p><h2>Materials</h2><p>${PROSE}</p></main></body></html>`,
    );
    expect(shop).not.toContain('We ship worldwide');
    expect(shop).toContain('Materials');
  });

  it('reads a rating summary that ends at its words, not a verdict that goes on', () => {
    expect(boilerplateReason(block('<p>4.5 out of 5 stars: the best budget phone this year, two-day battery included.</p>'))).toBeNull();
    expect(boilerplateReason(block('<div>4.6 out of 5 stars 2,847 ratings</div>'))).toBe('rating');
    expect(boilerplateReason(block('<div>4,5 sur 5 étoiles (12 avis)</div>'))).toBe('rating');
    expect(text(article('<p>4.5 out of 5 stars: the best budget phone this year, two-day battery included.</p>'))).toContain(
      'best budget phone',
    );
  });

  it('reads "signature" only as a whole class name', () => {
    const out = text(
      `<html><head><title>The Harbour Bar</title></head><body><main><h1>The Harbour Bar</h1><p>${PROSE}</p><section class="signature-cocktails">` +
        `<h2>Signature cocktails</h2><ul><li>Harbour Negroni, gin and bitter orange</li><li>Salt Spritz with sea fennel</li></ul></section><p>${PROSE}</p></main></body></html>`,
    );
    expect(out).toContain('Harbour Negroni');
  });

  it('takes a thread’s invitation only as a short block that opens with it', () => {
    expect(boilerplateReason(block('<p>Join the conversation about water rights at the town hall on Friday.</p>'))).toBeNull();
    expect(boilerplateReason(block('<p>Log in to reply</p>'))).toBe('call to action');
    expect(text(article('<p>Join the conversation about water rights at the town hall on Friday.</p>'))).toContain(
      'water rights at the town hall',
    );
  });

  it('reads a day-and-time stamp only at a block’s start, and no month inside a word', () => {
    expect(boilerplateReason(block('<p>The parade starts Sept 14 at 10:30.</p>'))).toBeNull();
    expect(boilerplateReason(block('<div>Mar 9 at 11:02</div>'))).toBe('dateline');
    expect(boilerplateReason(block('<p>Market 2024 opens soon</p>'))).toBeNull();
    expect(text(article('<p>The parade starts Sept 14 at 10:30.</p>'))).toContain('The parade starts Sept 14 at 10:30.');
  });

  it('keeps a review plugin’s review when it is the page', () => {
    const out = text(
      `<html><head><title>Review: Terrace Reserve 2019</title></head><body><div class="wrap"><div itemscope itemtype="https://schema.org/Product">` +
        `<h1 itemprop="name">Terrace Reserve 2019</h1><div itemprop="review" itemscope itemtype="https://schema.org/Review"><div itemprop="reviewBody">` +
        `<p>${PROSE}</p><p>Blackberry and slate on the nose; firm tannins that need five more years.</p><p>${PROSE}</p></div></div></div></div></body></html>`,
    );
    expect(out).toContain('Blackberry and slate');
    expect(out.length).toBeGreaterThan(400);
  });

  it('keeps a title’s own sub-heading: only forum labels are stripped from the title', () => {
    const root = block('<div><h1>Lesson 3: Loops</h1><p>Text.</p><h3>Loops</h3><h3>Thread: Help</h3></div>');
    removeTitleRepeats(root, 'Lesson 3: Loops');
    expect(root.querySelectorAll('h3').length).toBe(2);
    const forum = block('<div><h1>Thread: Help with carb</h1><h2>Help with carb</h2><p>Text.</p></div>');
    removeTitleRepeats(forum, 'Thread: Help with carb');
    expect(forum.querySelector('h2')).toBeNull();
  });

  it('takes a hidden copy of a shown teaser for a "read more" text, not a slide', () => {
    const doc = parseDocument(
      '<body><div><div class="intro"><p>The valley has been farmed for centuries by the same families…</p></div>' +
        '<div class="intro" style="display:none"><p>The valley has been farmed for centuries by the same families, who keep its terraces.</p></div></div></body>',
    );
    const hidden = doc.querySelector('[style]')!;
    expect(isHiddenSlide(hidden)).toBe(false);
    const out = text(
      '<html><head><title>Valley</title></head><body><article><h1>Valley</h1><p>' +
        PROSE +
        '</p><div class="intro"><p>The valley has been farmed for centuries by the same families…</p></div>' +
        '<div class="intro" style="display:none"><p>The valley has been farmed for centuries by the same families, who keep its terraces.</p></div><p>' +
        PROSE +
        '</p></article></body></html>',
    );
    expect(out.split('farmed for centuries').length - 1).toBe(1);
  });

  it('does not read a lower-case word ending in "registered" as a member card', () => {
    expect(boilerplateReason(block('<p>Posts: 3 from unregistered users were hidden.</p>'))).not.toBe('member card');
    expect(boilerplateReason(block('<div>plot22Joined: Jan 2019 Posts: 2,184</div>'))).toBe('member card');
  });

  it('does not take utility classes (Tailwind "prose", "mb-4") for a post template', () => {
    const para = (i: number) =>
      `<p class="mb-4 leading-7">Paragraph ${i} of the post explains how the valley’s terraces were rebuilt after the floods, stone by stone.</p>`;
    const comment = (i: number) =>
      `<div class="comment"><span>reader${i}</span><div class="prose"><p class="mb-4 leading-7">Comment ${i}: great read, I visited last summer and the terraces were stunning.</p></div></div>`;
    const html =
      `<html><head><title>Rebuilding the terraces</title></head><body><main><h1>Rebuilding the terraces</h1><div class="prose">${[1, 2, 3, 4, 5, 6].map(para).join('')}</div>` +
      `<section id="comments" class="comments"><h2>3 Comments</h2>${[1, 2, 3].map(comment).join('')}</section></main></body></html>`;
    const out = text(html);
    expect(out).toContain('Paragraph 6 of the post');
    expect(out).not.toContain('Comment 1:');
  });
});

describe("a shop's buy box, seller lines and readers' say", () => {
  const SHOP = { shop: true, reviewed: true };
  const product = (inner: string) =>
    `<html><head><title>Kettle</title><script type="application/ld+json">{"@type":"Product","name":"Kettle"}</script></head>` +
    `<body><main><h1>Kettle</h1><p>${PROSE}</p>${inner}<h2>Specifications</h2><p>${PROSE}</p></main></body></html>`;

  it("drops a seller's and fulfilment lines on a shop page, with or without a price", () => {
    for (const line of [
      'Sold and shipped by Walmart.com',
      'Dispatches from Amazon',
      'Standard delivery 2-4 working days · Free',
      'Express delivery 1-2 working days · €5.90',
      'Delivery available',
      'Price when purchased online',
      'Secure payment by card or Bizum',
      'You save $15.00',
    ]) {
      expect([line, boilerplateReason(block(`<div>${line}</div>`), Infinity, SHOP)]).toEqual([line, 'shop notice']);
    }
    // Cells run together in the text ("Tax includedShips in 24-48h") are read one by one.
    expect(boilerplateReason(block('<div><span>Tax included</span><span>Ships in 24-48h</span></div>'), Infinity, SHOP)).toBe(
      'shop notice',
    );
    // The price itself stays.
    expect(boilerplateReason(block('<div>$44.97</div>'), Infinity, SHOP)).toBeNull();
  });

  it('keeps such a line anywhere but a shop page', () => {
    expect(boilerplateReason(block('<p>Ships from Shanghai were held up by the storm.</p>'))).toBeNull();
    expect(boilerplateReason(block('<p>Sold by the kilo at the Saturday market.</p>'))).toBeNull();
    expect(
      text(
        `<html><head><title>Port</title></head><body><article><h1>Port</h1><p>${PROSE}</p><p>Ships from Shanghai were held up by the storm.</p><p>${PROSE}</p></article></body></html>`,
      ),
    ).toContain('Ships from Shanghai were held up');
  });

  it('reads a rating widget by its words and numbers alone, and keeps a sentence that counts out of five', () => {
    for (const line of ['4.3 out of 5 Stars. 1287 reviews(1,287)', '4.7 out of 5 (58) Read reviews', '(2811) 99.8% positive']) {
      expect([line, boilerplateReason(block(`<div>${line}</div>`))]).toEqual([line, 'rating']);
    }
    // A rating number and its linked count run together ("4.7" + "86 Reviews").
    expect(boilerplateReason(block('<div><span>4.7</span><a href="#r">86 Reviews</a></div>'))).toBe('rating');
    expect(boilerplateReason(block('<span>A star rating of 4.7 out of 5.</span>'))).toBe('rating');
    expect(boilerplateReason(block('<p>4 out of 5 dentists recommend it.</p>'))).toBeNull();
    expect(boilerplateReason(block('<span>4 out of 5 dentists</span>'))).toBeNull();
  });

  it('drops the reviews, Q&A, similar items and seller sections of a product page', () => {
    const out = text(
      product(
        '<section><h2>Customer ratings &amp; reviews</h2><p>Hot for hours, keeps it warm until lunch.</p></section>' +
          '<section><h2>Questions &amp; Answers</h2><p>Does it come with a filter? Yes.</p></section>' +
          '<section><h2>Similar items you might like</h2><p>Another kettle</p></section>' +
          '<section><h2>About this seller</h2><p>A two-person workshop in Sheffield.</p></section>' +
          '<section><h2>Reviews</h2><p>Boils fast and quietly.</p></section>',
      ),
    );
    for (const gone of ['Hot for hours', 'come with a filter', 'Another kettle', 'two-person workshop', 'Boils fast'])
      expect(out).not.toContain(gone);
    expect(out).toContain('Specifications');
  });

  it('keeps a bare "Reviews" section of an article that is no product or recipe', () => {
    const out = text(
      `<html><head><title>Film notes</title></head><body><article><h1>Film notes</h1><p>${PROSE}</p>` +
        `<h2>Reviews</h2><p>The critics were kind to the film, if not to its ending.</p><p>${PROSE}</p></article></body></html>`,
    );
    expect(out).toContain('The critics were kind');
  });
});

describe("a shop's price labels, badges, item codes and list-headed notices", () => {
  const SHOP = { shop: true, reviewed: true };

  it('drops them on a shop page, and keeps the price and a sentence about a price', () => {
    for (const html of [
      '<span>Regular price</span>',
      '<span>Sale</span>',
      '<span>Best seller</span>',
      '<div>SKU: HH-WRAP-3W</div>',
      '<div>Item No. <span>FW-RDG28</span></div>',
      '<div><span>Article number</span><span>205.518.73</span></div>',
      '<p class="h5">You might also like</p>',
    ]) {
      expect([html, boilerplateReason(block(html), Infinity, SHOP)]).toEqual([html, 'shop label']);
    }
    expect(boilerplateReason(block('<span>£18.00</span>'), Infinity, SHOP)).toBeNull();
    expect(boilerplateReason(block('<p>The sale price held for a week.</p>'), Infinity, SHOP)).toBeNull();
    expect(boilerplateReason(block('<p>Item number two on the list is the lid.</p>'), Infinity, SHOP)).toBeNull();
    // Stock status stays (a restock watch follows it).
    expect(boilerplateReason(block('<span>Sold out</span>'), Infinity, SHOP)).toBeNull();
  });

  it('keeps them off a shop page: a "New" or "Sale" label may be a blog’s own', () => {
    expect(boilerplateReason(block('<span>Sale</span>'))).toBeNull();
    expect(boilerplateReason(block('<div>SKU: HH-WRAP-3W</div>'))).toBeNull();
  });

  it('reads a notice list whose items run together in the text ("30-day returnsSecure checkout")', () => {
    expect(boilerplateReason(block('<ul><li>30-day returns</li><li>Secure checkout</li></ul>'))).toBe('shop notice');
  });
});

describe("a shop's reviews and other products, headed in other languages", () => {
  const SHOP = { shop: true, reviewed: true };

  it.each(['Kundenbewertungen', 'Avis clients', 'Opiniones del producto', 'Oceny i recenzje produktu', 'カスタマーレビュー'])(
    'takes "%s" for the reviews heading',
    (heading) => {
      expect(boilerplateReason(block(`<h2>${heading}</h2>`), Infinity, SHOP)).toBe('thread heading');
    },
  );

  it.each([
    'Inni kupili również',
    'Andere Kunden kauften auch',
    'Les clients ont également acheté',
    'この商品を見た人はこんな商品も見ています',
    'ショップ情報',
  ])('takes "%s" for a shop section', (heading) => {
    expect(boilerplateReason(block(`<h2>${heading}</h2>`), Infinity, SHOP)).toBe('shop section');
  });

  it('leaves a bare "Opinie" or "Avis" heading alone (an opinion column)', () => {
    expect(boilerplateReason(block('<h2>Opinie</h2>'), Infinity, {})).toBeNull();
    expect(boilerplateReason(block('<h2>Avis</h2>'), Infinity, {})).toBeNull();
  });
});
