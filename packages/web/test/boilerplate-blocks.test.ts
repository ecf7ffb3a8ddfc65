import { parseDocument, textOf } from '../src/content/dom';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { removeFormBoxes } from '../src/content/form-boxes';
import { removeChrome } from '../src/content/clean';
import { readStructuredData } from '../src/content/structured-data';
import { createMarkdownConverter } from '../src/content/markdown';

const PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of care. ';

/** The first element matching `selector` in a fragment. */
const first = (html: string, selector = 'body > *') => parseDocument(html).querySelector(selector)!;

describe('boilerplate blocks, judged by what they say and how much of them is links', () => {
  it('names each kind of in-article boilerplate, in several languages', () => {
    const cases: Array<[string, string]> = [
      ['<p><strong>Read more:</strong> <a href="/x">Bus fares frozen for another year</a></p>', 'teaser'],
      ['<p><strong>Lesen Sie auch:</strong> <a href="/x">Neue Buslinie verbindet Umland mit der Innenstadt</a></p>', 'teaser'],
      ['<div><a href="/x">Inside the race to build a cheaper electric van</a></div>', 'teaser'],
      ['<div><span>Advertisement</span><div></div></div>', 'ad label'],
      ['<div>Reklama</div>', 'ad label'],
      ['<div>विज्ञापन</div>', 'ad label'],
      ['<div>广告</div>', 'ad label'],
      ['<div>By अंकित मिश्र Edited By: राहुल वर्मा · Updated: Tue, 16 Apr 2024</div>', 'byline'],
      ['<div>3 / 12</div>', 'no words'],
      ['<p>You have read 3 of your 5 free articles this month. <a href="/s">Subscribe now</a></p>', 'subscription pitch'],
      ['<p>Die wichtigsten Nachrichten jeden Morgen: jetzt den Newsletter abonnieren.</p>', 'subscription pitch'],
      [
        '<p>Get the week’s best stories in your inbox every Friday. It is free, and you can leave at any time. <a href="/n">Sign up for the newsletter</a></p>',
        'subscription pitch',
      ],
      ['<div><p>Sarah Collins is a staff writer who covers transport and energy.</p><a href="/a">Follow</a></div>', 'author bio'],
      ['<div>By <a href="/a">James Porter</a> <span>5 min read</span></div>', 'byline'],
      ['<div><a href="#p2">#2</a> <time>12 Mar 2024</time></div>', 'dateline'],
      ['<p>Asked 2 years ago · Viewed 40936 times</p>', 'dateline'],
      ['<div><span>Share this article</span> <a href="/s?fb">Facebook</a> <a href="/s?x">X</a></div>', 'share block'],
      ['<p>Follow us on Instagram @simplesuppers</p>', 'share block'],
      ['<p>Tried this recipe? Leave a rating in the comments below!</p>', 'call to action'],
      ['<p><em>This post may contain affiliate links. Please read my disclosure policy.</em></p>', 'disclosure'],
      ['<div>4.94 from 63 votes</div>', 'counter'],
      ['<div>3 Likes</div>', 'counter'],
      ['<p>Photograph: Ruth Okafor/The Weekender</p>', 'credit'],
      // Chinese news: the staff line, and captions told by their photographer at the end.
      ['<p>责任编辑：陈晓 图片编辑：金潇</p>', 'credit'],
      ['<p>(责编：王一帆、陈思远)</p>', 'credit'],
      ['<p>石門水庫水位下降，庫區大片裸露。（記者陳昀攝）</p>', 'credit'],
      ['<p>茶溪村村民在预冷库前分拣猕猴桃。本报记者 林晓岚摄</p>', 'credit'],
      ['<p>社区食堂里，老人们排队打饭。 澎湃新闻记者 李静 图</p>', 'credit'],
      ['<span>2/5</span>', 'counter'],
      ['<h2>3 comments</h2>', 'thread heading'],
      ['<h3>Leave a reply</h3>', 'thread heading'],
      ['<p class="tagline">[–] 288 points (2 children)</p>', 'counter'],
      ['<div>1 of 10</div>', 'counter'],
      ['<p>© 2024 Example Media Ltd. All rights reserved.</p>', 'copyright'],
      ['<dl><dt>oldgreaser</dt><dd>Senior Member</dd><dd>Posts: 2184</dd><dd>Joined: Mon Mar 08, 2010</dd></dl>', 'member card'],
      ['<div><a href="/u/0">plot22</a><span>Joined: Jan 2019</span><span>Posts: 40</span></div>', 'member card'],
      ['<div>Sent from my iPhone using Tapatalk</div>', 'signature'],
      ['<p>Users browsing this forum: No registered users and 4 guests</p>', 'who is online'],
      ['<div>Last edited by rocketgoldie on Sun Apr 21, 2024, edited 1 time in total.</div>', 'byline'],
      ['<p>Post a comment!</p>', 'call to action'],
      ['<div>Rated 4.67 out of 5 based on 3 customer ratings</div>', 'rating'],
      ['<div>★★★★★ 4.8 from 126 votes</div>', 'counter'],
      ['<h2>Customers also bought</h2>', 'shop section'],
      ['<h2>Shipping &amp; returns</h2>', 'shop section'],
    ];
    for (const [html, reason] of cases) expect([html, boilerplateReason(first(html))]).toEqual([html, reason]);
  });

  it('leaves article text alone, short or long, whatever words it holds', () => {
    const kept = [
      `<p>${PROSE}</p>`,
      `<p>Readers who subscribe to the printed edition will see the new layout first. ${PROSE}</p>`,
      '<p>Next: <a href="/posts/2">the second post</a>.</p>',
      '<p>The exact location is being kept secret.</p>',
      '<p>See also, <a href="/for">for</a>, <a href="/loop">loop</a>.</p>',
      '<h2>Reviews</h2>',
      '<h2>What happens next</h2>',
      '<li><span>225</span> <span>g</span> self-raising flour</li>',
      '<span>225</span>',
      '<p>Basic: 10 EUR</p>',
      '<div>£18.00</div>',
      '<p>Residents’ permits will rise from £40 to £55 a year.</p>',
      '<div><pre><code>// Share the state\nlet shared = Arc::new(state);</code></pre></div>',
      '<ul><li>Tuesday to Friday: about two thirds of normal services</li><li>Last trains around 19:00</li></ul>',
      // Sentences that start like bylines, headings that start like thread headings, a plan's price.
      '<p>By default, the server listens on port 8080.</p>',
      '<p>Par exemple, la ville a fermé deux écoles.</p>',
      '<h2>Discussion and conclusions</h2>',
      '<h2>Reviews of the best laptops</h2>',
      '<p>Pro subscription: $29/month, billed yearly.</p>',
      '<p>Call <code>subscribe()</code> to listen for changes.</p>',
      // A product's own sections, a post that mentions what it counts, a docs heading.
      '<h2>Materials &amp; care</h2>',
      '<h2>Delivery</h2>',
      '<p>The club has 40 members and 12 points of contact.</p>',
      '<p>I joined in 2019 and have written 40 posts since, mostly about the allotment.</p>',
      // Chinese sentences that name a reporter or a photograph, and an editor's own paragraph.
      '<p>记者从杭州市园林文物局获悉，西湖景区将从4月1日起试行分时段预约游船服务。</p>',
      '<p>他说，这张照片是记者在现场拍摄的。</p>',
      '<p>责任编辑认为，这篇报道需要补充更多的数据和采访。</p>',
      // News prose that mentions a subscription, with nothing to act on: no pitch.
      '<p>Steeds meer gemeenten bieden mantelzorgers een gratis abonnement op een deelfiets aan. Acht van de twintig grootste gemeenten hebben zo’n regeling al.</p>',
      '<p>The library ended overdue fines last spring and replaced them with a free subscription to its e-book service. Borrowing rose by a fifth within six months.</p>',
    ];
    for (const html of kept) expect([html, boilerplateReason(first(html), 5000)]).toEqual([html, null]);
  });

  it('takes a link list out of an article, but not the list that is a hub page’s content', () => {
    const list =
      '<ul><li><a href="/a">How one village cut its energy bills</a></li><li><a href="/b">Teachers vote on new pay offer</a></li></ul>';
    expect(boilerplateReason(first(list), 2000)).toBe('link list');
    expect(boilerplateReason(first(list), 80)).toBeNull();
  });

  it('keeps the values of a table cell, however short or linked', () => {
    const table = parseDocument(
      '<table><tr><th>Blade length</th><td><p><a href="/t/240">240 mm</a></p></td></tr><tr><th>Teeth per inch</th><td><p>17</p></td></tr></table>',
    );
    for (const p of Array.from(table.querySelectorAll('td p'))) expect(boilerplateReason(p, 5000)).toBeNull();
  });

  it("removes a shop's section with its heading: a disclosure widget, or the blocks up to the next heading", () => {
    const root = first(
      `<div><h1>Stoneware mug</h1><p>${PROSE}</p><details><summary><h2>Shipping &amp; returns</h2></summary><p>We dispatch within 2 days.</p></details>` +
        '<h2>Customers also bought</h2><ul><li><a href="/p/1">Travel mug £12.00</a></li><li><a href="/p/2">Jar £8.00</a></li></ul>' +
        '<h2>Care</h2><p>Hand wash only.</p></div>',
    );
    pruneBoilerplate(root, { shop: true });
    expect(root.innerHTML).toBe(`<h1>Stoneware mug</h1><p>${PROSE}</p><h2>Care</h2><p>Hand wash only.</p>`);
  });

  it('prunes in place, with the heading of a removed block and the wrappers left empty', () => {
    const root = first(
      `<div><h1>Budget approved</h1><p>${PROSE}</p>` +
        '<div class="css-1x2y3z"><h3>Related stories</h3><ul><li><a href="/a">How one village cut its energy bills</a></li>' +
        '<li><a href="/b">Teachers vote on new pay offer</a></li></ul></div>' +
        `<p>${PROSE}</p><div><div><span>Advertisement</span></div></div>` +
        '<h2>2 comments</h2><ol><li>Great piece, thanks.</li><li>I disagree with every word.</li></ol><h3>More from us</h3></div>',
    );
    pruneBoilerplate(root);
    expect(root.innerHTML).toBe(`<h1>Budget approved</h1><p>${PROSE}</p><p>${PROSE}</p>`);
  });
});

describe('small pages', () => {
  it('keeps dates and counts on a page of little prose (what a watch follows), drops them beside an article', () => {
    const page = '<h1>Fixtures</h1><p>Next home match</p><p>Saturday 12 April 2025</p><p>3 / 5</p>';
    const events = first(`<div>${page}</div>`);
    pruneBoilerplate(events);
    expect(events.innerHTML).toBe(page);
    const article = first(`<div><h1>Budget approved</h1><p>Saturday 12 April 2025</p><p>${PROSE}</p><p>${PROSE}</p><div>3 / 5</div></div>`);
    pruneBoilerplate(article);
    expect(textOf(article)).not.toMatch(/April|3 \/ 5/);
  });
});

describe('form boxes', () => {
  it('removes a newsletter box found by its email field, with its pitch, and nothing around it', () => {
    const document = parseDocument(
      `<main><article><h1>Title</h1><p>${PROSE}</p><div class="sc-a1b2"><p><strong>Get the morning briefing</strong></p>` +
        '<p>The top stories in your inbox.</p><form><input type="email"><button>Go</button></form></div>' +
        `<p>${PROSE}</p></article></main>`,
    );
    removeFormBoxes(document.body, (element) => element.tagName === 'MAIN' || element.tagName === 'ARTICLE');
    const text = textOf(document.body);
    expect(text).not.toMatch(/morning briefing|inbox/);
    expect(text.split(PROSE.slice(0, 40))).toHaveLength(3);
  });

  it('keeps a form that wraps the whole page (ASP.NET style), stripping only its controls later', () => {
    const document = parseDocument(
      `<form id="aspnetForm"><input type="hidden" name="v"><h2>Opening hours</h2><p>${PROSE}</p><input type="text"></form>`,
    );
    removeChrome(document);
    expect(document.querySelector('form h2')?.textContent).toBe('Opening hours');
    expect(document.querySelector('form p')?.textContent).toBe(PROSE);
    expect(document.querySelector('input')).toBeNull();
  });

  it('takes out a post\'s row of actions, but not an "actions" box holding content or a shop\'s price', () => {
    const document = parseDocument(
      `<main><h1>Tabs do not restore</h1><p>${PROSE}</p>` +
        '<div class="answer-actions"><span>Helpful?</span><form><button>Yes</button></form><a href="#reply">Quote</a></div>' +
        '<div class="question-actions"><a href="#r">Reply</a><span>I have this problem too (14)</span><a href="#">Report abuse</a></div>' +
        `<section id="actions"><h2>Actions</h2><p>${PROSE}</p></section></main>`,
    );
    removeChrome(document, readStructuredData(document), false);
    const text = textOf(document.body);
    expect(text).not.toContain('Helpful?');
    expect(text).not.toContain('Report abuse');
    expect(document.querySelector('#actions h2')?.textContent).toBe('Actions');
    const shop = parseDocument(
      '<main><h1>Ridgeline Daypack</h1><div class="prices-add-to-cart-actions"><span class="price">$129.00</span></div></main>',
    );
    removeChrome(shop, readStructuredData(shop), true);
    expect(textOf(shop.body)).toContain('$129.00');
  });

  it("reads a block's role from its component name too, and a picture's rights line from its class", () => {
    const document = parseDocument(
      `<main><article><h1>Bridge closed</h1><div data-component="byline-block"><div class="x1-Contributor">Joe Whitcombe</div><div>BBC News, Hereford</div></div>` +
        '<figure><img src="/b.jpg" alt="A bridge"><span class="x2-Copyright"><span>Image source, </span>Westshire Council</span></figure>' +
        `<div data-component="text-block"><p>${PROSE}</p></div></article></main>`,
    );
    removeChrome(document, readStructuredData(document), false);
    const text = textOf(document.body);
    expect(text).not.toContain('Joe Whitcombe');
    expect(text).not.toContain('Westshire Council');
    expect(text).toContain(PROSE.trim());
    expect(document.querySelector('img')).not.toBeNull();
  });

  it('keeps a callout aside in the article, not an aside whose class only contains a callout word', () => {
    const document = parseDocument(
      `<main><h1>Retries</h1><p>${PROSE}</p><aside class="note"><p>Retries are capped at five.</p></aside>` +
        '<aside class="post-info"><p>Jane Porter writes about infrastructure.</p></aside></main>',
    );
    removeChrome(document, readStructuredData(document), false);
    const text = textOf(document.body);
    expect(text).toContain('Retries are capped at five.');
    expect(text).not.toContain('Jane Porter');
  });

  it('keeps syntax-highlighted comments inside code, whatever the class names say', () => {
    const document = parseDocument(
      `<main><h1>Loops</h1><p>${PROSE}</p><pre><code>break; <span class="comment">// Exit when i is 64.</span></code></pre></main>`,
    );
    removeChrome(document);
    expect(document.querySelector('pre')!.textContent).toBe('break; // Exit when i is 64.');
  });
});

describe('class-name guesses inside the article', () => {
  it("keeps a paywall wrapper named like chrome when it holds the article's prose, and still drops a pitch beside it", () => {
    const document = parseDocument(
      `<body><nav>Home</nav><article><h1>Council votes</h1><div itemprop="articleBody">` +
        `<div class="subscriber-preview"><p>${PROSE}</p></div><div class="subscriber-only"><p>${PROSE}</p><p>${PROSE}</p></div>` +
        `<div class="newsletter-promo"><p>Get the morning briefing in your inbox.</p></div></div></article></body>`,
    );
    removeChrome(document);
    const text = textOf(document.body);
    expect(text.split('The council voted').length - 1).toBe(3);
    expect(text).not.toContain('morning briefing');
  });

  it('keeps captions named as captions on a page told in them, and drops them beside an article', () => {
    const caption = (n: number) =>
      `<figure><img src="/${n}.jpg" alt=""><figcaption class="gallery-caption">Swimmers at dawn in bay number ${n}, where the club has met every morning since the war and the water is seven degrees.</figcaption></figure>`;
    const gallery = parseDocument(`<body><h1>Sea swimmers</h1><p>Pictures.</p>${caption(1)}${caption(2)}</body>`);
    removeChrome(gallery);
    expect(textOf(gallery.body)).toContain('bay number 2');
    const article = parseDocument(`<body><h1>Sea swimmers</h1><p>${PROSE}</p><p>${PROSE}</p>${caption(1)}</body>`);
    removeChrome(article);
    expect(textOf(article.body)).not.toContain('bay number 1');
  });
});

describe('form boxes are pitches, not content', () => {
  it('keeps a task list of disabled checkboxes and a box that shows a price', () => {
    const document = parseDocument(
      `<body><main><h1>Release plan</h1><p>${PROSE}</p>` +
        '<ul><li><input type="checkbox" disabled checked> Freeze the API</li><li><input type="checkbox" disabled> Write the changelog</li></ul>' +
        '<form class="variations_form"><select name="size"><option>Large</option></select><span class="price">£24.00</span><button>Add to basket</button></form>' +
        '<div class="signup-x9"><p>Get our weekly briefing.</p><form><input type="email" name="email"><button>Sign up</button></form></div></main></body>',
    );
    removeChrome(document);
    const text = textOf(document.body);
    expect(text).toContain('Freeze the API');
    expect(text).toContain('Write the changelog');
    expect(text).toContain('£24.00');
    expect(text).not.toContain('weekly briefing');
  });
});

describe('highlighted code and headings in markdown', () => {
  it('unwraps a line-numbered code table (Pygments) into one fenced block, and drops heading permalinks', () => {
    const root = first(
      `<div><h2 id="expiry">Expiry<a class="headerlink" href="#expiry">¶</a></h2><p>${PROSE}</p>` +
        '<div class="highlight"><table class="highlighttable"><tr><td class="linenos"><pre><span>1</span>\n<span>2</span></pre></td>' +
        '<td class="code"><pre><span></span><code>cache:\n  ttl: 86400\n</code></pre></td></tr></table></div>' +
        '<p><a href="https://git.example/edit/docs/page.md" title="Edit this page"><svg></svg></a></p></div>',
    );
    pruneBoilerplate(root);
    const markdown = createMarkdownConverter()(root);
    expect(markdown).toBe(`## Expiry\n\n${PROSE.trim()}\n\n\`\`\`\ncache:\n  ttl: 86400\n\`\`\``);
  });

  it('fences code longer than any run of backticks inside it', () => {
    const markdown = createMarkdownConverter()(
      first('<div><pre><span></span><code class="language-md">Use ```js to start a block</code></pre></div>'),
    );
    expect(markdown).toBe('````md\nUse ```js to start a block\n````');
  });
});

describe('many datelines in one article beside a picture', () => {
  it('prunes a page of 4,000 dated entries with one image, each entry kept and each date gone', () => {
    const entries = Array.from(
      { length: 4000 },
      (_, i) => `<p>Entry ${i}: the cooperative met again to discuss the harvest.</p><p>12 March 2024</p>`,
    ).join('');
    const root = first(`<article><h1>Minutes</h1><img src="/a.jpg" alt="hill">${entries}</article>`);
    pruneBoilerplate(root);
    expect(root.querySelectorAll('p').length).toBe(4000);
    expect(textOf(root)).not.toContain('12 March 2024');
    expect(root.querySelector('img')).not.toBeNull();
  });
});

describe('a Discuz! post’s signature box', () => {
  it('goes by its class "sign", a class that only starts so stays', () => {
    const document = parseDocument(
      `<body><main><h1>绿萝的老叶子发黄</h1><table><tr><td><div class="t_f">${PROSE}</div></td></tr>` +
        '<tr><td><div class="sign">种花不为别的，就图个开心。</div></td></tr></table><div class="signs-of-rot"><p>Soft brown stems at the soil line.</p></div></main></body>',
    );
    removeChrome(document);
    const text = textOf(document.body);
    expect(text).not.toContain('种花不为别的');
    expect(text).toContain('Soft brown stems');
  });
});
