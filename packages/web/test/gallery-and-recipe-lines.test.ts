import { parseDocument, textOf } from '../src/content/dom';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { createContentExtractor } from '../src/content/page-content';

const PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of care. ';

const text = (html: string) => createContentExtractor().extract(html, 'https://example.com/t', { text: true }).text ?? '';
const block = (html: string): Element => parseDocument(`<body>${html}</body>`).body.firstElementChild!;
const RECIPE = { reviewed: true };

describe("a recipe's amounts written apart from their ingredients", () => {
  it('keeps a count or fraction followed by the ingredient’s words, on a recipe page', () => {
    const span = block('<li><span>1/2</span> <span>cup (113g) unsalted butter</span></li>').firstElementChild!;
    expect(boilerplateReason(span, Infinity, RECIPE)).toBeNull();
    const div = block('<div><div class="amount">2</div><div class="description">Tbsp. unsalted butter</div></div>').firstElementChild!;
    expect(boilerplateReason(div, Infinity, RECIPE)).toBeNull();
    const bare = block('<li><span>1 1/2</span> cups rolled oats</li>').firstElementChild!;
    expect(boilerplateReason(bare, Infinity, RECIPE)).toBeNull();
  });

  it('still drops a slide counter, a tally and a step badge', () => {
    expect(boilerplateReason(block('<div><span>3/12</span></div>').firstElementChild!, Infinity, RECIPE)).toBe('counter');
    expect(boilerplateReason(block('<div><div>412</div><div>18</div></div>').firstElementChild!, Infinity, RECIPE)).toBe('no words');
    expect(boilerplateReason(block('<div><div>1</div><div>Step 1</div></div>').firstElementChild!, Infinity, RECIPE)).toBe('no words');
    // Beside an article (no recipe), a number before words is still judged as before.
    expect(boilerplateReason(block('<div><span>3/12</span> <span>Harbour at dawn</span></div>').firstElementChild!)).toBe('counter');
  });

  it('keeps the amounts in a recipe page’s text', () => {
    const out = text(
      `<html><head><title>Cookies</title><script type="application/ld+json">{"@type":"Recipe","name":"Cookies"}</script></head><body><article><h1>Cookies</h1>` +
        `<p>${PROSE}</p><p>${PROSE}</p><h2>Ingredients</h2><ul><li><span>1/2</span> <span>cup unsalted butter</span></li><li><span>3</span> <span>tablespoons white miso</span></li></ul>` +
        `<h2>Method</h2><ol><li>Brown the butter.</li><li>Beat in the miso.</li></ol></article></body></html>`,
    );
    expect(out).toContain('1/2 cup unsalted butter');
    expect(out).toContain('3 tablespoons white miso');
  });
});

describe("a carousel caption's wire credit", () => {
  it('trims "(AP Photo/Name)" from a caption paragraph outside any figure, and keeps a parenthesis that is no credit', () => {
    const root = block(
      '<div><div class="slide"><div class="count">1 of 8</div><div class="description"><p>Pickers empty their bags into a bin at dawn. (AP Photo/Lindsey Wasson)</p></div></div>' +
        '<p>The orchard was planted in 1938 (the family still runs it).</p></div>',
    );
    pruneBoilerplate(root);
    expect(textOf(root)).toContain('Pickers empty their bags into a bin at dawn.');
    expect(textOf(root)).not.toContain('AP Photo');
    expect(textOf(root)).toContain('(the family still runs it)');
  });

  it.each([
    'Upload a logo with a transparent background (image: at least 512 by 512 pixels)',
    'The phone records in two modes (Foto: 12 MP, Video: 4K)',
    'Das Gerät speichert beides (Bild: JPEG, Ton: MP3)',
  ])('keeps a paragraph’s closing parenthesis outside a figure when it is no wire credit: "%s"', (sentence) => {
    const root = block(`<div><p>${sentence}</p><p>The orchard was planted in 1938 (the family still runs it).</p></div>`);
    pruneBoilerplate(root);
    expect(textOf(root)).toContain(sentence);
  });
});

describe("a recipe page's shopping-list link, readers' made-it reports, ad labels and like invitations", () => {
  const recipePage = (extra: string) =>
    `<html><head><title>Soup</title><script type="application/ld+json">{"@type":"Recipe","name":"Soup"}</script></head><body><article><h1>Soup</h1>` +
    `<p>${PROSE}</p><p>${PROSE}</p><section><h2>Ingredients</h2><ul><li>2 leeks</li><li>1 litre stock</li></ul>${extra}</section>` +
    `<h2>Method</h2><ol><li>Soften the leeks.</li><li>Add the stock and simmer.</li></ol></article></body></html>`;

  it('drops a shopping-list control written as a link, in several languages, and keeps a link in a sentence', () => {
    for (const label of ['Add to shopping list', 'Adicionar à lista de compras', '買い物リストに追加', 'Zur Einkaufsliste hinzufügen']) {
      const out = text(recipePage(`<a class="btn" href="/list">${label}</a>`));
      expect([label, out.includes(label)]).toEqual([label, false]);
      expect(out).toContain('1 litre stock');
    }
    const sentence = text(recipePage('<p>Keep a <a href="/list">shopping list</a> on the fridge door and add to it as you go.</p>'));
    expect(sentence).toContain('Keep a shopping list on the fridge door');
  });

  it('drops the readers’ made-it section under its heading on a recipe page only', () => {
    const reports = '<section><h2>つくれぽ</h2><ul><li><p>朝ごはんにぴったりでした！</p><span>ゆかりん</span></li></ul></section>';
    const out = text(recipePage(reports));
    expect(out).not.toContain('つくれぽ');
    expect(out).not.toContain('朝ごはんにぴったりでした');
    const snaps = text(recipePage('<div><h2>Cooksnaps</h2><ul><li><p>Helga: Perfect with the crumble!</p></li></ul></div>'));
    expect(snaps).not.toContain('Perfect with the crumble');
    expect(boilerplateReason(block('<h2>Cooksnaps</h2>'))).toBeNull();
  });

  it('reads Portuguese, Polish and Chinese ad labels and a "log in to like" invitation', () => {
    for (const label of ['Publicidade', 'Reklama', '广告'])
      expect([label, boilerplateReason(block(`<div>${label}</div>`))]).toEqual([label, 'ad label']);
    expect(boilerplateReason(block('<div>Log in to like or comment.</div>'))).toBe('call to action');
    expect(boilerplateReason(block('<p>Publicidade paga a conta do site, disse o editor.</p>'))).toBeNull();
  });
});

describe("a gallery's intro in the title's box", () => {
  const photos = [
    'Knot at high tide over the mudflats',
    'Roost on the shingle',
    'Godwit feeding at a creek edge',
    'Oystercatchers against the wind',
    'Grey plover in winter plumage',
  ]
    .map(
      (caption, i) =>
        `<li><div class="thumb"><a href="/p${i}"><img src="/p${i}.jpg" alt="${caption}"></a></div>` +
        `<div class="info"><h3>${caption}</h3><p>${caption}. The birds stayed for about an hour before the water dropped back to the mud.</p></div></li>`,
    )
    .join('');
  const INTRO =
    'Every winter the Wash hosts hundreds of thousands of wading birds that breed in the Arctic and come here to feed on the mudflats. ' +
    'These photographs were taken over six mornings between November and January, mostly from the public hides along the sea wall.';
  const page = (box: string) =>
    `<html><head><title>Shorebirds</title></head><body><div id="main"><div class="${box}"><h1>Shorebirds of the Wash</h1>` +
    `<div class="intro"><p>${INTRO}</p></div></div><ul class="thumbnails">${photos}</ul></div></body></html>`;

  it('keeps the intro in a box Readability would take for a header by its name', () => {
    const out = text(page('zf-PhotoSetHeader'));
    expect(out).toContain('Every winter the Wash hosts');
    expect(out).toContain('Roost on the shingle');
    expect(text(page('set-top'))).toContain('Every winter the Wash hosts');
  });
});

describe('a portfolio written without paragraphs', () => {
  const DESCRIPTION =
    '<div class="text">Tidelines began with a crate of driftwood that washed up after the autumn storms. I burned it over three weekends and sieved the ash into jars.</div>' +
    '<div class="text">The forms are slabs cut from a single sheet of clay, folded while still soft and left to slump.</div>';
  const card = (caption: string, i: number) =>
    `<div class="gallery_card"><div class="gallery_card_image"><img src="/t${i}.jpg" alt=""></div><div class="gallery_image_caption">${caption}</div></div>`;
  const page = (captions: string[]) =>
    `<html><head><title>Tidelines</title></head><body><div class="content"><h1>Tidelines (2026)</h1>${DESCRIPTION}` +
    `<div class="gallery">${captions.map(card).join('')}</div></div></body></html>`;

  it('keeps the captions of a gallery told in them, judged by its text outside links', () => {
    const out = text(
      page([
        'Tideline I, the first ash batch. The olive green pooled in the fold.',
        'Tideline II, with iron speckles from nails left in the driftwood.',
        'Tideline IV, glazed only on the inside so the raw clay shows.',
      ]),
    );
    expect(out).toContain('Tideline II, with iron speckles');
    expect(out).toContain('Tidelines began with a crate of driftwood');
  });

  it('still drops a lone short caption beside a div-soup article', () => {
    const out = text(page(['Driftwood on the beach below the house.']));
    expect(out).not.toContain('Driftwood on the beach');
    expect(out).toContain('Tidelines began with a crate of driftwood');
  });
});

describe('taxonomy lines, saves and short-written counts', () => {
  it('drops a taxonomy line or its bare label, keeps a sentence that starts with the word', () => {
    expect(boilerplateReason(block('<div>Tags: Miso, Oat, Chocolate</div>'), Infinity, RECIPE)).toBe('taxonomy');
    expect(boilerplateReason(block('<div>Category: Dinner</div>'), Infinity, RECIPE)).toBe('taxonomy');
    expect(boilerplateReason(block('<div>Keywords: chickpea curry, vegan curry</div>'), Infinity, RECIPE)).toBe('taxonomy');
    expect(boilerplateReason(block('<p>Categories</p>'))).toBe('taxonomy');
    expect(boilerplateReason(block('<div>Schlagwörter: <a href="/t/brot">Brot</a>, <a href="/t/sauerteig">Sauerteig</a></div>'))).toBe(
      'taxonomy',
    );
    expect(boilerplateReason(block('<div>Tags: <a href="/t/miso">Miso</a>, <a href="/t/oat">Oat</a></div>'))).toBe('taxonomy');
    expect(boilerplateReason(block('<p>Tags are free-form labels you can add to any page.</p>'))).toBeNull();
    expect(
      boilerplateReason(block('<p>Topics: we covered the budget, the libraries and the parking charges in turn. Then we left.</p>')),
    ).toBeNull();
  });

  it('reads a rating line that counts saves, and counts written short as numbers', () => {
    expect(boilerplateReason(block('<div>★★★★★ 38 Ratings · 2,104 Saves</div>'))).toBe('rating');
    expect(boilerplateReason(block('<div><span>412</span> <span>3.1k</span> <span>18</span></div>'))).toBe('no words');
    expect(boilerplateReason(block('<div>3.1 km</div>'))).toBeNull();
  });
});

describe('licence lines, French nutrition panels and recipe rating prompts', () => {
  it('drops a picture’s licence line, keeps a sentence that names a licence', () => {
    expect(boilerplateReason(block('<div><a href="/a.jpg">Download image</a><span>Public domain (CC0)</span></div>'))).toBe('licence');
    expect(boilerplateReason(block('<p>Licensed under CC BY-NC-SA 4.0</p>'))).toBe('licence');
    expect(boilerplateReason(block('<p>The survey data is released as CC0, so any school can reuse it.</p>'))).toBeNull();
  });

  it('reads a Canadian French nutrition panel on a recipe page', () => {
    const panel =
      '<div><h3>Valeur nutritive</h3><p>Par portion</p><table><tr><td>Calories</td><td>390</td></tr><tr><td>Protéines</td><td>15 g</td></tr>' +
      '<tr><td>Matières grasses</td><td>11 g</td></tr><tr><td>Glucides</td><td>62 g</td></tr><tr><td>Fibres</td><td>12 g</td></tr></table></div>';
    expect(boilerplateReason(block(panel), Infinity, RECIPE)).toBe('nutrition');
  });

  it('reads a rating line with its prompt to rate, and a prompt to rate a recipe one made', () => {
    expect(boilerplateReason(block('<div>★★★★★ (63) Rezept bewerten</div>'))).toBe('rating');
    expect(boilerplateReason(block('<p>Made this recipe? Share your rating.</p>'))).toBe('call to action');
  });
});

describe("a portfolio's more-from section and Jetpack's like box", () => {
  const page = (after: string) =>
    `<html><head><title>Lantern market</title></head><body><article><h1>Lantern market</h1><p>${PROSE}</p><p>${PROSE}</p>` +
    `<figure><img src="/a.jpg" alt="The market at dusk"><figcaption>The market at dusk</figcaption></figure>${after}</article></body></html>`;

  it('drops a "More artwork by" section of picture tiles with its heading', () => {
    const out = text(
      page(
        '<div class="more"><h3>More artwork by Mira Tanaka</h3><ul><li><a href="/a/1"><img src="/1.jpg" alt="Salt Flats Depot"></a></li><li><a href="/a/2"><img src="/2.jpg" alt="Glasshouse"></a></li></ul></div>',
      ),
    );
    expect(out).not.toContain('More artwork by');
    expect(out).toContain('Councillors said');
    expect(boilerplateReason(block('<h2>More recipes by Katrin Bauer</h2>'))).toBe('more from');
    expect(boilerplateReason(block('<h2>More work is needed on the bridge</h2>'))).toBeNull();
  });

  it('drops the sharedaddy like box of a WordPress post', () => {
    const out = text(
      page(
        '<div class="sharedaddy sd-block sd-like jetpack-likes-widget-wrapper"><h3 class="sd-title">Like this:</h3><div class="likes-widget-placeholder"><span class="button"><span>Like</span></span> <span class="loading">Loading…</span></div></div>',
      ),
    );
    expect(out).not.toContain('Like this:');
    expect(out).not.toContain('Loading');
  });
});

describe("WP Recipe Maker's short nutrition label and a rating span", () => {
  it('reads "Serving: 1 bowl Calories: 298 Protein: 16g" as a nutrition panel on a recipe page', () => {
    const label =
      '<div><span><span>Serving: </span><span>1</span><span> bowl</span></span><span><span>Calories: </span><span>298</span></span>' +
      '<span><span>Protein: </span><span>16</span><span>g</span></span></div>';
    expect(boilerplateReason(block(label), Infinity, RECIPE)).toBe('nutrition');
    expect(boilerplateReason(block('<p>Serving: 1 bowl with bread, and it is filling.</p>'), Infinity, RECIPE)).toBeNull();
  });

  it('reads a "4.9 from 86 votes" span as a counter, not an ingredient’s span', () => {
    const row = block('<div><span class="item"><span>4.9 from 86 votes</span></span><span>Vegan</span></div>');
    expect(boilerplateReason(row.querySelector('span span')!)).toBe('counter');
    expect(boilerplateReason(block('<li><span>4 eggs</span> beaten</li>').firstElementChild!)).toBeNull();
  });
});

describe('an upsell box and MediaWiki’s tagline', () => {
  it('drops a box named "upsell" and the siteSub tagline under a MediaWiki title', () => {
    const out = text(
      `<html><head><title>Lighthouses</title></head><body><div id="content"><h1>Lighthouses of Brittany</h1>` +
        `<div id="siteSub">From Wikimedia Commons, the free media repository</div><p>${PROSE}</p><p>${PROSE}</p>` +
        `<section class="Gallery__Upsell-sc-8z0vfd-5"><h2>Unlock unlimited uploads</h2><p>Get more exposure for your work with a membership.</p></section></div></body></html>`,
    );
    expect(out).not.toContain('free media repository');
    expect(out).not.toContain('Unlock unlimited uploads');
    expect(out).toContain('Councillors said');
  });
});

describe("a step's bare number leading its item", () => {
  it('drops a bare number that is the item’s place in an ordered list, keeps an amount that is not', () => {
    const steps = block(
      '<ol><li><span class="n">1</span><span>Preheat the oven to 180 °C.</span></li><li><span class="n">2</span><span>Beat the eggs and sugar.</span></li></ol>',
    );
    const numbers = Array.from(steps.querySelectorAll('.n'));
    for (const number of numbers) expect(boilerplateReason(number, Infinity, RECIPE)).toBe('step number');
    const amounts = block('<ol><li><span>3</span><span>eggs</span></li><li><span>2</span> <span>cups sugar</span></li></ol>');
    for (const amount of Array.from(amounts.querySelectorAll('li > span:first-child')))
      expect(boilerplateReason(amount, Infinity, RECIPE)).toBeNull();
  });
});

describe("a recipe card's taxonomy rows", () => {
  const recipe = (card: string) =>
    `<html><head><title>Curry</title><script type="application/ld+json">{"@type":"Recipe","name":"Curry"}</script></head><body><article><h1>Curry</h1>` +
    `<p>${PROSE}</p><p>${PROSE}</p>${card}<h2>Ingredients</h2><ul><li>2 tins chickpeas</li><li>1 onion</li></ul>` +
    `<h2>Method</h2><ol><li>Soften the onion.</li><li>Add the chickpeas.</li></ol></article></body></html>`;

  it('drops course, cuisine, diet and keyword rows with their label in an element of its own', () => {
    const out = text(
      recipe(
        '<div class="meta"><div><span class="label">Course </span><span>Cake</span></div><div><span class="label">Cuisine </span><span>British</span></div></div>' +
          '<ul class="details"><li><span>Diet:</span> <span>Vegan</span></li></ul><p><span>Keywords:</span> chickpea curry, vegan curry</p>',
      ),
    );
    for (const gone of ['Course', 'British', 'Vegan', 'Keywords']) expect([gone, out.includes(gone)]).toEqual([gone, false]);
    expect(out).toContain('2 tins chickpeas');
  });

  it('keeps a sentence that starts with such a word', () => {
    const out = text(recipe('<p><strong>Cuisine</strong> matters less here than timing: add the spices early.</p>'));
    expect(out).toContain('matters less here than timing');
  });
});

describe('a wire dateline set apart from the first paragraph', () => {
  it('reads "London CNN —" and "PARIS (AFP) –" as datelines, not a sentence ending in a dash', () => {
    expect(boilerplateReason(block('<div><cite><span>London</span><span> CNN</span></cite><span>&nbsp;—&nbsp;</span></div>'))).toBe(
      'dateline',
    );
    expect(boilerplateReason(block('<p>PARIS (AFP) –</p>'))).toBe('dateline');
    expect(boilerplateReason(block('<p>And then the lights went out —</p>'))).toBeNull();
  });
});
