import { parseDocument, textOf } from '../src/content/dom';
import { removeChrome } from '../src/content/clean';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { unwrapHeadingButtons } from '../src/content/heading-buttons';
import { lineCoverage, missesListedLines } from '../src/content/listed-lines';
import { readStructuredData } from '../src/content/structured-data';
import { createContentExtractor } from '../src/content/page-content';
import { isSiteNameHeading } from '../src/content/site-name';

const PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of care. ';

const text = (html: string) => createContentExtractor().extract(html, 'https://example.com/t', { text: true }).text ?? '';
const block = (html: string): Element => parseDocument(`<body>${html}</body>`).body.firstElementChild!;

describe('test hooks name chrome like classes do', () => {
  const page = (hook: string) =>
    `<body><main><h1>Balcony herbs</h1><p>${PROSE}</p><p>${PROSE}</p>` +
    `<div ${hook}><h2>More to explore</h2><div><a href="/pin/1">Gutter garden</a></div><div><a href="/pin/2">Shade herbs</a></div></div></main></body>`;

  it('removes a block whose data-testid says it is related content', () => {
    const document = parseDocument(page('data-test-id="related-pins"'));
    removeChrome(document);
    expect(textOf(document.body)).not.toContain('More to explore');
    expect(textOf(document.body)).toContain('council voted');
  });

  it('keeps a block whose data-testid names no chrome', () => {
    const document = parseDocument(page('data-testid="pin-closeup-body"'));
    removeChrome(document);
    expect(textOf(document.body)).toContain('More to explore');
  });
});

describe('a photo number leading its caption', () => {
  it('goes, and the caption stays', () => {
    const root = block(
      `<div><p>${PROSE}</p><p>${PROSE}</p><figure><img src="a.jpg" alt="">` +
        '<figcaption><span>3</span><span>Children play hockey on a cleared patch of ice.</span></figcaption></figure></div>',
    );
    expect(boilerplateReason(root.querySelector('figcaption span')!)).toBe('counter');
    pruneBoilerplate(root);
    expect(textOf(root.querySelector('figcaption')!)).toBe('Children play hockey on a cleared patch of ice.');
  });

  it('stays inside prose, and when it is the caption itself', () => {
    expect(boilerplateReason(block('<p>We counted <span>3</span> shacks per row.</p>').querySelector('span')!)).toBeNull();
    const lone = block('<figure><figcaption><span>12</span></figcaption></figure>').querySelector('span')!;
    expect(boilerplateReason(lone)).toBeNull();
  });
});

describe('a rating count alone', () => {
  it('goes ("312 Bewertungen", "48 reviews")', () => {
    expect(boilerplateReason(block('<div>312 Bewertungen</div>'))).toBe('counter');
    expect(boilerplateReason(block('<div>48 reviews</div>'))).toBe('counter');
  });

  it('stays when it is a sentence', () => {
    expect(boilerplateReason(block('<p>We read 48 reviews before choosing this pan.</p>'))).toBeNull();
  });
});

describe('a spec sheet laid out in blocks', () => {
  it('keeps a number that has its label beside it ("Aspect Ratio" / "16:9")', () => {
    const row = block('<div><p>Aspect Ratio</p><p>16:9</p></div>');
    expect(boilerplateReason(row.lastElementChild!)).toBeNull();
    const inputs = block('<div><p>Number of HDMI Inputs</p><p>2</p></div>');
    expect(boilerplateReason(inputs.lastElementChild!)).toBeNull();
  });

  it("still drops a bare tally, a linked name's count and a recipe's servings", () => {
    expect(boilerplateReason(block('<div><p>277</p></div>').firstElementChild!)).toBe('no words');
    expect(boilerplateReason(block('<div><a href="/u/ann">ann</a><p>1234</p></div>').lastElementChild!)).toBe('no words');
    expect(boilerplateReason(block('<div><p>Servings:</p><p>8</p></div>').lastElementChild!)).toBe('no words');
  });
});

describe('accordion headings', () => {
  it('keep the text of the button that is all of the heading', () => {
    const document = parseDocument(
      '<body><h5><button aria-expanded="true">Material &amp; care</button></h5><dl><dt>Lining</dt><dd>Cotton</dd></dl></body>',
    );
    unwrapHeadingButtons(document.body);
    expect(document.querySelector('h5 button')).toBeNull();
    expect(textOf(document.querySelector('h5')!)).toBe('Material & care');
  });

  it('leave a button beside heading text alone (a copy or anchor control)', () => {
    const document = parseDocument('<body><h2>Install <button>Copy</button></h2></body>');
    unwrapHeadingButtons(document.body);
    expect(document.querySelector('h2 button')).not.toBeNull();
  });

  it('survive extraction', () => {
    const page =
      `<body><main><h1>Wool overshirt</h1><p>${PROSE}</p><p>${PROSE}</p>` +
      '<h2><button aria-expanded="true">Size &amp; fit</button></h2><p>Regular fit, normal length, true to size for most.</p></main></body>';
    expect(text(page)).toContain('Size & fit');
  });
});

describe('recipe ingredient coverage', () => {
  const INGREDIENTS = ['250 g Linsen (Tellerlinsen), braune', '1 Zwiebel(n)', '1 Möhre(n)', '100 g Knollensellerie', '2 EL Butter'];

  it('reads recipeIngredient from JSON-LD and from microdata', () => {
    const ld = parseDocument(
      `<head><script type="application/ld+json">{"@type":"Recipe","recipeIngredient":${JSON.stringify(INGREDIENTS)}}</script></head><body></body>`,
    );
    expect(readStructuredData(ld).ingredients).toEqual(INGREDIENTS);
    const micro = parseDocument(
      '<body><ul><li itemprop="recipeIngredient">2 eggs</li><li itemprop="recipeIngredient">1 cup  milk</li></ul></body>',
    );
    expect(readStructuredData(micro).ingredients).toEqual(['2 eggs', '1 cup milk']);
  });

  it('matches lines however the page spaces and punctuates them', () => {
    expect(lineCoverage(INGREDIENTS, '250 g\tLinsen (Tellerlinsen), braune 1 Zwiebel(n) 1 Möhre(n)')).toBeCloseTo(0.6);
  });

  it('says a method without its ingredients misses them only when the container holds them', () => {
    const all = INGREDIENTS.join('\n');
    expect(missesListedLines(INGREDIENTS, 'Die Linsen waschen.', `${all}\nDie Linsen waschen.`)).toBe(true);
    expect(missesListedLines(INGREDIENTS, 'Die Linsen waschen.', 'Die Linsen waschen.')).toBe(false);
    expect(missesListedLines(INGREDIENTS, all, all)).toBe(false);
    expect(missesListedLines(INGREDIENTS.slice(0, 2), '', INGREDIENTS.slice(0, 2).join(' '))).toBe(false);
  });

  it("makes extraction take the page's container when the ingredients sit in a box apart", () => {
    const rows = INGREDIENTS.map(
      (line) => `<tr><td>${line.split(' ')[0]}</td><td><a href="/i">${line.split(' ').slice(1).join(' ')}</a></td></tr>`,
    ).join('');
    const steps = 'Die Linsen in einem Sieb waschen und mit dem Gemüse in Butter andünsten, dann mit Brühe ablöschen. '.repeat(8);
    const page =
      `<html><head><script type="application/ld+json">{"@type":"Recipe","recipeIngredient":${JSON.stringify(INGREDIENTS)}}</script></head>` +
      `<body><main><article><h1>Linsen mit Spätzle</h1></article><article><h2>Zutaten</h2><table>${rows}</table></article>` +
      `<article><h2>Zubereitung</h2><div>${steps}</div></article></main></body></html>`;
    const out = text(page);
    expect(out).toContain('Knollensellerie');
    expect(out).toContain('Sieb waschen');
  });
});

describe('a logo in an h1', () => {
  const heading = (html: string) => {
    const document = parseDocument(
      `<html><head><title>Solar on the old school field : Portal News</title></head><body>${html}</body></html>`,
    );
    return isSiteNameHeading(document.querySelector('h1')!, document);
  };

  it("is the site's name when every word of it links to a home page", () => {
    expect(
      heading('<div><h1><a href="https://www.naver.com"><span>NAVER</span></a><a href="https://news.naver.com/">News</a></h1></div>'),
    ).toBe(true);
    expect(heading('<div><h1><a href="/">Portal</a></h1></div>')).toBe(true);
  });

  it('is the title when it links to a page, holds unlinked words, or sits in the article', () => {
    expect(heading('<div><h1><a href="https://news.example/2024/solar">Solar on the old school field</a></h1></div>')).toBe(false);
    expect(heading('<div><h1>Solar on the <a href="/">old school</a> field</h1></div>')).toBe(false);
    expect(heading('<article><h1><a href="/">Solar on the old school field</a></h1></article>')).toBe(false);
  });
});

describe('Korean and Japanese news footers', () => {
  it('drop the reporter line and the reprint notice', () => {
    expect(boilerplateReason(block('<p>박지훈 기자 jhpark@hanbit.example</p>'))).toBe('byline');
    expect(boilerplateReason(block('<p>※ 이 기사는 저작권법의 보호를 받습니다. 무단 전재 및 재배포 금지</p>'))).toBe('copyright');
    expect(boilerplateReason(block('<p>記事の無断転載を禁じます。</p>'))).toBe('copyright');
  });

  it('keep a sentence that mentions a reporter', () => {
    expect(boilerplateReason(block('<p>주민들은 기자에게 전기요금이 크게 줄었다고 말했다.</p>'))).toBeNull();
  });
});

describe("a recipe card's nutrition panel, step labels and credits", () => {
  it('drops a nutrition panel however it is laid out, and its small print', () => {
    const panels = [
      '<div>Nutrition Facts (per serving) 248 Calories 7g Fat 38g Carbs 8g Protein</div>',
      '<p>512 calories; 11 grams fat; 2 grams saturated fat; 87 grams carbohydrates; 12 grams protein; 940 milligrams sodium</p>',
      '<ul><li><span>kcal</span>452</li><li><span>fat</span>20g</li><li><span>carbs</span>48g</li><li><span>protein</span>15g</li></ul>',
      '<ul><li>Serving Size: 1/4 of recipe</li><li>Calories: 412</li><li>Protein: 13g</li></ul>',
      '<div>Percent Daily Values are based on a 2,000 calorie diet.</div>',
    ];
    for (const html of panels) expect([html, boilerplateReason(block(html), Infinity, { reviewed: true })]).toEqual([html, 'nutrition']);
    // Beside an article (not a recipe's card) a nutrition line is the article's.
    expect(boilerplateReason(block('<p>Per 100g: 52 calories, 0.2g fat, 14g carbs, 0.3g protein.</p>'))).toBeNull();
  });

  it('keeps a sentence that names nutrients with their amounts', () => {
    const sentence = '<p>Each slice has about 250 calories, 12g fat and 4g protein, so keep it for the weekend.</p>';
    expect(boilerplateReason(block(sentence))).toBeNull();
    expect(boilerplateReason(block('<ul><li>2 tbsp olive oil</li><li>1 tsp salt</li><li>200g sugar</li></ul>'))).toBeNull();
  });

  it('drops a bare "Step 1" heading or label in an ordered list’s item, keeps one the steps have no other number than, a step that says more and a paragraph label', () => {
    const inItem = (html: string) =>
      block(`<ol><li>${html}<p>Brown the beef in batches.</p></li></ol>`).querySelector('li')!.firstElementChild!;
    expect(boilerplateReason(inItem('<h3>Step 1</h3>'))).toBe('step label');
    expect(boilerplateReason(inItem('<span>Étape 2</span>'))).toBe('step label');
    expect(boilerplateReason(block('<h3>Step 1</h3>'))).toBeNull();
    expect(boilerplateReason(inItem('<h3>Step 1: Install the package</h3>'))).toBeNull();
    expect(boilerplateReason(inItem('<p>Step 1</p>'))).toBeNull();
  });

  it('drops every bare step label on a recipe’s page, its text after it, in or out of a list', () => {
    const RECIPE = { reviewed: true };
    const step = (html: string) =>
      block(`<div class="step">${html}<p>Preheat the oven to 200°C and line a tray.</p></div>`).firstElementChild!;
    expect(boilerplateReason(step('<span class="head">Étape 1</span>'), Infinity, RECIPE)).toBe('step label');
    expect(boilerplateReason(step('<h3>Schritt 2</h3>'), Infinity, RECIPE)).toBe('step label');
    // Mealie: the number drawn as a badge in the title box, the text in the box after it.
    const badge = block(
      '<div class="card"><div class="title"><div class="avatar">3</div> Step 3 </div><div class="text"><p>Shape the dough into a tight round.</p></div></div>',
    );
    expect(boilerplateReason(badge.querySelector('.title')!, Infinity, RECIPE)).toBe('step label');
    // Not on a shop's page, not without the step's text after it, and not a tutorial's heading.
    expect(boilerplateReason(step('<span>Step 1</span>'), Infinity, { reviewed: true, shop: true })).toBeNull();
    expect(boilerplateReason(block('<div><span>Step 1</span></div>').firstElementChild!, Infinity, RECIPE)).toBeNull();
    expect(boilerplateReason(step('<h3>Step 1</h3>'))).toBeNull();
  });

  it('reads a photography and styling credit', () => {
    expect(boilerplateReason(block('<div>Photography by Chris Alder, food styling by Mina Park</div>'))).toBe('credit');
    expect(boilerplateReason(block('<p>Photography became her living after the paper closed.</p>'))).toBeNull();
  });

  it("drops a recipe's reviews under a bare heading", () => {
    const out = text(
      `<html><head><title>Stew</title><script type="application/ld+json">{"@type":"Recipe","name":"Stew"}</script></head><body><article><h1>Stew</h1>` +
        `<p>${PROSE}</p><h2>Method</h2><ol><li>Brown the beef in batches.</li><li>Simmer for two hours.</li></ol>` +
        `<section><h2>Reviews</h2><p>Made it twice, the second time with lamb.</p></section></article></body></html>`,
    );
    expect(out).toContain('Simmer for two hours');
    expect(out).not.toContain('Made it twice');
  });
});

describe("a recipe card's nutrition table and control labels", () => {
  const RECIPE = { reviewed: true };

  it('drops a nutrition table on a recipe page, keeps a food product’s as its spec', () => {
    const panel =
      '<div><h2>Nutrition Facts</h2><table><tr><td>248</td><td>Calories</td></tr><tr><td>7g</td><td>Fat</td></tr>' +
      '<tr><td>38g</td><td>Carbs</td></tr><tr><td>8g</td><td>Protein</td></tr></table></div>';
    expect(boilerplateReason(block(panel), Infinity, RECIPE)).toBe('nutrition');
    expect(boilerplateReason(block(panel), Infinity, { shop: true, reviewed: true })).toBeNull();
    // A spec table is still the table's, whatever numbers it holds.
    expect(
      boilerplateReason(block('<div><table><tr><td>Width</td><td>63 cm</td></tr><tr><td>Depth</td><td>24 cm</td></tr></table></div>')),
    ).toBeNull();
  });

  it('drops the labels a recipe card’s controls leave, only on a recipe or product page', () => {
    for (const line of [
      'Prevent your screen from going dark',
      'Scale',
      '1x 2x 3x',
      'Original recipe (1X) yields 8 servings',
      'Jump to Recipe',
    ]) {
      expect([line, boilerplateReason(block(`<div>${line}</div>`), Infinity, RECIPE)]).toEqual([line, 'recipe control']);
    }
    expect(boilerplateReason(block('<div>Scale</div>'))).toBeNull();
    expect(boilerplateReason(block('<p>Scale the recipe up for a crowd: it doubles well.</p>'), Infinity, RECIPE)).toBeNull();
  });
});
