import { parseDocument, textOf } from '../src/content/dom';
import { removeChrome } from '../src/content/clean';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { createContentExtractor } from '../src/content/page-content';

const extracted = (html: string) => createContentExtractor().extract(html, 'https://shop.example/p/1', { text: true }).text ?? '';
const block = (html: string): Element => parseDocument(`<body>${html}</body>`).body.firstElementChild!;
const SHOP = { shop: true, reviewed: true };
const DESCRIPTION =
  '<p>The Nexa Pro is built for people who move big files: game libraries, 4K video projects and photo catalogs, with a controller that keeps load times short.</p>' +
  '<p>The included toolbox software shows drive health, updates firmware, and can clone your existing drive so you do not have to reinstall your operating system.</p>' +
  '<p>It fits a new build as its boot drive, or an older system as an upgrade, where it simply runs at the speeds that system allows, with no setup to do.</p>';

const cleaned = (html: string): string => {
  const document = parseDocument(html);
  removeChrome(document);
  return textOf(document.body);
};

describe('a checklist written as checkbox labels', () => {
  const item = (id: string, line: string) => `<p><input type="checkbox" id="${id}"><label for="${id}"><span>${line}</span></label></p>`;

  it('keeps the labels of three or more checkboxes outside a form (a recipe’s ingredients)', () => {
    const text = cleaned(
      `<body><main><h1>Skillet</h1><section><h2>Ingredients</h2>` +
        item('i0', '2 tablespoons olive oil') +
        item('i1', '1 large onion, diced') +
        `<p><label><input type="checkbox"> 3 cloves garlic, minced</label></p></section></main></body>`,
    );
    expect(text).toContain('2 tablespoons olive oil');
    expect(text).toContain('1 large onion, diced');
    expect(text).toContain('3 cloves garlic, minced');
  });

  it('still drops a lone checkbox label, a form’s labels and toggles with several labels each', () => {
    expect(cleaned('<body><main><h1>Drive</h1><p>Fast.</p><label><input type="checkbox"> Compare</label></main></body>')).not.toContain(
      'Compare',
    );
    const form =
      '<form action="/subscribe">' +
      ['a', 'b', 'c'].map((id) => `<input type="checkbox" id="${id}"><label for="${id}">Topic ${id}</label>`).join('') +
      '</form>';
    expect(cleaned(`<body><main><h1>News</h1><p>Story.</p>${form}</main></body>`)).not.toContain('Topic');
    const toggles =
      '<input type="checkbox" id="nav"><input type="checkbox" id="toc">' +
      '<label for="nav">Hide navigation</label><label for="toc">Hide contents</label><label for="nav">Toggle navigation</label><label for="toc">Toggle contents</label>';
    expect(cleaned(`<body>${toggles}<main><h1>Docs</h1><p>Text.</p></main></body>`)).not.toMatch(/Hide|Toggle/);
  });
});

describe("a product's block around the description Readability picks", () => {
  const page = (beside: string) =>
    '<html><head><script type="application/ld+json">{"@type":"Product","name":"Nexa Pro 2TB"}</script></head><body>' +
    `<div class="wrap"><div class="primary"><h1>Nexa Pro 2TB</h1>${beside}</div>` +
    `<div class="panes"><div class="pane">${DESCRIPTION}</div>` +
    '<div class="pane"><table><tr><th>Capacity</th><td>2TB</td></tr><tr><th>Interface</th><td>PCIe Gen4 x4</td></tr></table></div></div></div>' +
    '<footer><p>© 2024 Example Shop</p></footer></body></html>';

  it('takes the block holding the title, the feature bullets and the spec table the pick left out', () => {
    const bullets =
      '<ul><li>Sequential reads up to 7,200 MB/s and writes up to 6,500 MB/s</li><li>A DRAM buffer keeps speeds steady in long transfers</li>' +
      '<li>Rated for 1,200 TB written, with a five-year warranty</li></ul><p>$119.99</p>';
    const text = extracted(page(bullets));
    expect(text).toContain('Sequential reads up to 7,200 MB/s');
    expect(text).toContain('PCIe Gen4 x4');
    expect(text).toContain('$119.99');
    expect(text).toContain('clone your existing drive');
  });

  it('keeps to the pick when all that stands beside it is the buy box', () => {
    const text = extracted(page('<p>$119.99</p><ul><li>30-day returns</li><li>Secure checkout</li></ul>'));
    expect(text).toContain('clone your existing drive');
    expect(text).not.toContain('$119.99');
  });
});

describe("a shop's buy box lines, spans and section headings", () => {
  it('drops fulfilment and return lines written as spans, on a shop page only', () => {
    for (const line of [
      'Ships from United States.',
      'Get it by Thu, Mar 21',
      'Ready within 2 hours',
      'Free with $35 orders*',
      'When purchased online',
    ]) {
      expect([line, boilerplateReason(block(`<span>${line}</span>`), Infinity, SHOP)]).toEqual([line, 'shop notice']);
      expect([line, boilerplateReason(block(`<span>${line}</span>`))]).toEqual([line, null]);
    }
    for (const line of ['Available, delivery time 3-5 days', 'Return Policy: Standard Return Policy', 'Save: $40.00 25%']) {
      expect([line, boilerplateReason(block(`<div>${line}</div>`), Infinity, SHOP)]).toEqual([line, 'shop notice']);
    }
    // A product's own spans stay: an ingredient of a food, a feature, a price.
    expect(boilerplateReason(block('<span>Ready-to-drink cold brew, 12 cans</span>'), Infinity, SHOP)).toBeNull();
    expect(boilerplateReason(block('<span>Save energy with the eco mode</span>'), Infinity, SHOP)).toBeNull();
    expect(boilerplateReason(block('<span>$119.99</span>'), Infinity, SHOP)).toBeNull();
  });

  it('drops a product number line and a rating line that counts questions', () => {
    expect(boilerplateReason(block('<div>Product number: HW-10482</div>'), Infinity, SHOP)).toBe('shop label');
    expect(boilerplateReason(block('<div>Product number one in our range</div>'), Infinity, SHOP)).toBeNull();
    expect(boilerplateReason(block('<div>(318) 318 Reviews 48 Q&amp;A</div>'), Infinity, SHOP)).toBe('rating');
    // Elsewhere a count of questions is an exercise's or a quiz's.
    expect(boilerplateReason(block('<p>Questions 1-5</p>'))).toBeNull();
    expect(boilerplateReason(block('<div>48 questions about the 2018 budget</div>'))).toBeNull();
  });

  it('drops a "Guest ratings & reviews" section and, on a shop page, a "Questions" section', () => {
    const root = block(
      `<div><p>${DESCRIPTION}</p><section><h2>Guest ratings &amp; reviews</h2><p>Love the color.</p></section>` +
        '<section><h2>Questions</h2><p>Q: Are these oven safe?</p></section></div>',
    );
    pruneBoilerplate(root, SHOP);
    expect(textOf(root)).not.toMatch(/Love the color|oven safe/);
    expect(textOf(root)).toContain('clone your existing drive');
    const guide = block(`<div><p>${DESCRIPTION}</p><h2>Questions</h2><p>Which drive should a new build use?</p></div>`);
    pruneBoilerplate(guide, {});
    expect(textOf(guide)).toContain('Which drive should a new build use?');
  });
});
