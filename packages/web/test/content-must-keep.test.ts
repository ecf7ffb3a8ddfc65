/**
 * Real content that rules added for boilerplate must leave alone: each case is a page or block a
 * review found the rules deleting or mangling, kept here as it was found.
 */
import { parseDocument, textOf } from '../src/content/dom';
import { threadPosts } from '../src/content/discussion';
import { restoreMissingPosts } from '../src/content/coverage';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { separateFields } from '../src/content/fields';
import { withImpliedTags } from '../src/content/implied-tags';
import { createContentExtractor } from '../src/content/page-content';

const text = (html: string) => createContentExtractor().extract(html, 'https://example.com/t', { text: true }).text ?? '';
const body = (html: string) => parseDocument(`<body>${html}</body>`).body;
const reason = (html: string, page = {}) => boilerplateReason(body(html).firstElementChild!, Infinity, page);

const PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking in the town centre. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of adult social care this year. ';

describe('an article is no thread, however its paragraphs are wrapped', () => {
  const paragraph = (words: string) => `<div class="article-block"><div class="article-paragraph">${words} ${PROSE}</div></div>`;
  const ARTICLE =
    `<html><head><title>Growth</title></head><body><article><h1>Growth slows</h1>` +
    paragraph('Growth in <span class="glossary">GDP</span> was driven by services.') +
    paragraph('Economists had expected <span class="glossary">GDP</span> to rise faster.') +
    paragraph('Exports fell for a third quarter.') +
    paragraph('Imports held steady.') +
    `</article></body></html>`;

  it('is not judged a thread, and a word marked up twice stays in its sentences', () => {
    expect(threadPosts(parseDocument(ARTICLE).body)).toEqual([]);
    const out = text(ARTICLE);
    expect(out).toContain('Growth in GDP was driven by services.');
    expect(out).toContain('Economists had expected GDP to rise faster.');
  });

  it('keeps a word marked up twice inside a thread’s sentences too', () => {
    const root = body(
      `<div><p>${PROSE}</p><div>Open <span class="ui">Settings</span> and then <span class="ui">Devices</span>, remove the printer.</div>` +
        `<div>In <span class="ui">Settings</span>, under <span class="ui">Devices</span>, the printer shows as offline.</div></div>`,
    ).firstElementChild!;
    pruneBoilerplate(root, { thread: true });
    expect(textOf(root)).toContain('Open Settings and then Devices, remove the printer.');
  });
});

describe('an author box takes only itself', () => {
  it('keeps the sections after it', () => {
    const root = body(
      `<div><p>${PROSE}</p><h2>About the author</h2><p>Jane Smith reviews fiction for the paper.</p><h2>The verdict</h2><p>The novel is a triumph of patience.</p></div>`,
    ).firstElementChild!;
    pruneBoilerplate(root);
    const out = textOf(root);
    expect(out).not.toContain('Jane Smith');
    expect(out).toContain('The verdict');
    expect(out).toContain('The novel is a triumph of patience.');
  });
});

describe('news prose that looks like a cue', () => {
  it.each([
    '<p>外交部发言人表示，这只是个人言论，不代表中国政府的立场。</p>',
    '<p>用户需要将微信客户端升级到最新版本才能使用该功能。</p>',
    '<p>该平台的订阅用户已经超过一亿。</p>',
    '<p>넷플릭스 구독자 수가 2억 명을 넘었다.</p>',
    '<p>This question was closed by the 1998 ruling, which settled who owns the river bed.</p>',
    '<p>Keep up with the latest security patches by following the steps in the release notes.</p>',
    '<p>The track is royalty-free, so creators can use it in any video.</p>',
    '<p>The fix shipped in Home Assistant 2024.3.1.</p>',
  ])('keeps %s', (html) => {
    expect(reason(html)).toBeNull();
  });

  it('keeps a product’s labelled values on a shop page', () => {
    const root = body(
      '<ul><li>Optical zoom: <span class="v">3x</span></li><li>Condition: <span class="v">New</span></li></ul>',
    ).firstElementChild!;
    pruneBoilerplate(root, { shop: true, reviewed: true });
    expect(textOf(root)).toBe('Optical zoom: 3xCondition: New');
  });
});

describe('styled runs of one word or one sentence', () => {
  it.each([
    ['<p>It was <b class="c3">un</b><span class="c0">believable</span>.</p>', 'It was unbelievable.'],
    ['<p>the <span class="c1">final</span><span class="c2">, played in Rome</span></p>', 'the final, played in Rome'],
    ['<p>Read <span class="c1">Hamlet</span><span class="c2">\'s third act</span></p>', "Read Hamlet's third act"],
  ])('gets no space: %s', (html, expected) => {
    const root = body(html);
    separateFields(root);
    expect(root.textContent).toBe(expected);
  });
});

describe('a thread’s missing posts go back in page order', () => {
  it('puts a reply Readability cleaned away between the two it kept', () => {
    const post = (words: string) => body(`<div class="post-body"><p>${words}</p></div>`).firstElementChild!;
    const [first, second, third] = [
      'FIRST: the opening question about the boiler losing pressure overnight.',
      'SECOND: a short reply.',
      'THIRD: the answer that found the leaking valve.',
    ];
    const root = body(`<div><div><p>${first}</p></div><div><p>${third}</p></div></div>`).firstElementChild!;
    restoreMissingPosts(root, [post(first!), post(second!), post(third!)]);
    expect(textOf(root).indexOf('SECOND')).toBeGreaterThan(textOf(root).indexOf('FIRST'));
    expect(textOf(root).indexOf('SECOND')).toBeLessThan(textOf(root).indexOf('THIRD'));
  });
});

describe('the implied tags are not fooled by attribute values or strings', () => {
  it('reads a ">" in a quoted attribute and a "<body>" in a script string as no tags', () => {
    const quoted = parseDocument('<html><meta name="x" content="a>b"><title>T</title><h1>Hello</h1></html>');
    expect(quoted.body.innerHTML).toBe('<h1>Hello</h1>');
    expect(quoted.querySelector('meta')?.getAttribute('content')).toBe('a>b');
    const scripted = parseDocument('<html><script>var tpl="<body class=x>"</script><title>T</title><h1>Hello</h1></html>');
    expect(scripted.body.innerHTML).toBe('<h1>Hello</h1>');
  });

  it('extracts a page with neither head nor body tags', () => {
    const out = createContentExtractor().extract(
      `<!DOCTYPE html><html><meta charset="utf-8"><title>Budget approved</title><article><h1>Budget approved</h1><p>${PROSE}</p><p>${PROSE}</p></article></html>`,
      'https://example.com/a',
      { text: true },
    );
    expect(out.title).toBe('Budget approved');
    expect(out.text).toContain('Councillors said');
    expect(withImpliedTags('<html><title>t</title><p>x</p>')).toBe('<html><head><title>t</title></head><body><p>x</p>');
  });
});

describe('shop and recipe pages: what is the product’s or the recipe’s own', () => {
  const SHOP = { shop: true, reviewed: true };
  const PRODUCT_LD = '<script type="application/ld+json">{"@type":"Product","name":"Nexa Pro 2TB"}</script>';

  it.each([
    '<p>Save 30% on your energy bills every year</p>',
    '<p>Sold by the yard, cut to order</p>',
    '<p>Ready in 10 minutes: just heat and serve.</p>',
    '<p>Delivery time is 6-8 weeks for made-to-order sofas</p>',
    '<p>Arrives by Christmas in a gift box</p>',
    '<p>Get it by pressing the button twice</p>',
    '<p>Ref. 5711/1A-010</p>',
  ])('keeps product copy on a shop page: %s', (html) => {
    expect(reason(html, SHOP)).toBeNull();
  });

  it('keeps a labelled value in a definition list, and an ingredient’s “2x” amount', () => {
    const specs = body('<div><dl><dt>Condition</dt><dd><span>New</span></dd><dt>Colour</dt><dd>Black</dd></dl></div>').firstElementChild!;
    pruneBoilerplate(specs, SHOP);
    expect(textOf(specs)).toBe('ConditionNewColourBlack');
    const ingredients = body('<div><ul><li><span>2x</span> <span>400g cans chopped tomatoes</span></li></ul></div>').firstElementChild!;
    pruneBoilerplate(ingredients, { reviewed: true });
    expect(textOf(ingredients)).toBe('2x 400g cans chopped tomatoes');
  });

  it('leaves the reviews and related products out of the product’s block', () => {
    const description = [1, 2, 3].map((n) => `<p>Paragraph ${n} of the description: ${PROSE}</p>`).join('');
    const reviews = [1, 2, 3]
      .map((n) => `<li>Review ${n}: arrived quickly and works perfectly in my gaming PC, five stars from me.</li>`)
      .join('');
    const out = text(
      `<html><head><title>Nexa Pro 2TB</title>${PRODUCT_LD}</head><body><main><h1>Nexa Pro 2TB</h1>` +
        `<div class="buy"><p>$119.99</p><p>In stock. Order within 3 hrs for delivery tomorrow.</p><button>Add to cart</button></div>` +
        `<div class="desc">${description}</div><div class="reviews"><h2>What our customers say</h2><ul>${reviews}</ul></div>` +
        `<div><h2>Customers also shopped for</h2><div><a href="/1tb">Nexa 1TB</a> $79.99</div></div></main></body></html>`,
    );
    expect(out).toContain('Paragraph 3 of the description');
    expect(out).not.toContain('Review 1');
    expect(out).not.toContain('Nexa 1TB');
  });

  it('keeps a shop’s “Compare” boxes out of the content', () => {
    const tiles = ['Alpha', 'Beta', 'Gamma', 'Delta']
      .map(
        (name, i) =>
          `<div class="tile"><a href="/p/${i}">${name}</a><span>$1${i}.99</span><label><input type="checkbox"> Compare</label></div>`,
      )
      .join('');
    const out = text(
      `<html><head><title>Widget</title>${PRODUCT_LD}</head><body><main><h1>Widget</h1><p>${PROSE}</p>` +
        `<section><h2>Similar widgets</h2>${tiles}</section></main></body></html>`,
    );
    expect(out).not.toContain('Compare');
  });
});

describe('stop-20 review: real content the boilerplate rules took', () => {
  const pruned = (html: string, page = {}) => {
    const root = body(`<div><p>${PROSE}</p><p>${PROSE}</p>${html}</div>`).firstElementChild!;
    pruneBoilerplate(root, page);
    return textOf(root);
  };

  it.each([
    '<div class="plan"><h3>Team</h3><p>$29 per month</p><ul><li>Seats: 5</li><li>Messages: 10,000 / month</li><li>Storage: 20 GB</li></ul></div>',
    '<div class="tier"><h3>Community add-on</h3><ul><li>Posts: 10,000</li><li>Members: 500</li><li>Moderation tools</li></ul></div>',
  ])('keeps a pricing card whose list counts posts or messages: %s', (html) => {
    const out = pruned(html);
    for (const kept of Array.from(body(html).querySelectorAll('h3, p, li')).map(textOf)) expect(out).toContain(kept);
  });

  it('keeps a story’s section headed “More photos from …” or “More stories from …” that is no list of links', () => {
    const photos =
      '<h2>More photos from the scene</h2><figure><img src="/mill.jpg" alt="Firefighters on the roof of the mill"><figcaption>Crews worked through the night.</figcaption></figure>' +
      '<p>The fire started in the old dye works shortly after midnight, residents said.</p>';
    const root = body(`<div><p>${PROSE}</p>${photos}</div>`).firstElementChild!;
    pruneBoilerplate(root);
    expect(root.querySelector('img[alt]')).not.toBeNull();
    expect(textOf(root)).toContain('More photos from the scene');
    expect(textOf(root)).toContain('Crews worked through the night.');
    expect(textOf(root)).toContain('The fire started in the old dye works');
    const stories = pruned(
      '<h2>More stories from the front line</h2><p>A medic in Kharkiv told us how the clinic runs on two generators.</p>',
    );
    expect(stories).toContain('More stories from the front line');
    expect(stories).toContain('runs on two generators');
  });

  it('keeps a README’s or dataset’s licence section', () => {
    const out = pruned('<h2>License</h2><p>License: CC BY 4.0</p>');
    expect(out).toContain('License: CC BY 4.0');
    expect(out).toMatch(/License\s*License: CC BY 4\.0/);
    expect(pruned('<h2>Licence</h2><p>Released under CC0 (public domain).</p>')).toContain('Released under CC0');
  });

  it.each([
    '<p>Keywords: climate change, adaptation, Sahel, rainfall variability</p>',
    '<p>Category: Best Documentary Feature</p>',
    '<p>Topics: security, privacy, and the future of the web</p>',
  ])('keeps a paper’s or a list’s labelled terms written as plain text: %s', (html) => {
    expect(reason(html)).toBeNull();
    expect(pruned(html)).toContain(textOf(body(html)));
  });

  it('keeps a count inside a sentence', () => {
    const sentence = 'Curry finished with 38 points and nine assists as the Warriors won in overtime.';
    expect(
      pruned('<p>Curry finished with <span class="stat">38 points</span> and nine assists as the Warriors won in overtime.</p>'),
    ).toContain(sentence);
    expect(pruned('<p>The thread drew <span>120 replies</span> within an hour of the announcement.</p>')).toContain(
      'drew 120 replies within',
    );
  });

  it.each(['<div>85m²</div>', '<div>120m³</div>'])('keeps an area or volume written with “m”: %s', (html) => {
    expect(pruned(html)).toContain(textOf(body(html)));
  });

  it('keeps a recipe step that starts with the imperative “Cocina” or “Cucina”', () => {
    const steps =
      '<ol><li><strong>Cocina</strong> el arroz 18 minutos a fuego medio</li><li><strong>Cucina</strong> la pasta per 10 minuti in acqua salata</li></ol>';
    const out = pruned(steps, { reviewed: true });
    expect(out).toContain('Cocina el arroz 18 minutos a fuego medio');
    expect(out).toContain('Cucina la pasta per 10 minuti in acqua salata');
  });

  it.each(['<p>他在接受记者采访时展示了新馆的设计图</p>', '<p>她向记者出示了事故现场的照片和地图</p>'])(
    'keeps a Chinese sentence that mentions a reporter and ends in 图: %s',
    (html) => {
      expect(reason(html)).toBeNull();
    },
  );
});
