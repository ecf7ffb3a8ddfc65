import { parseDocument, textOf } from '../src/content/dom';
import { repliesShareThePostTemplate, threadPosts } from '../src/content/discussion';
import { removeChrome } from '../src/content/clean';
import { isNutritionPanel, isSignatureName } from '../src/content/boilerplate-cues';
import { pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { readStructuredData } from '../src/content/structured-data';
import { createContentExtractor } from '../src/content/page-content';

const body = (html: string) => parseDocument(`<body>${html}</body>`).body;

const POSTS = [
  'Since the last system update my laptop loses its wireless mouse every time it wakes from sleep, and only a restart brings it back.',
  'Wireless mice often pair with several devices; if another channel is paired to a phone nearby it may grab the connection on wake.',
  'Only one channel is in use here, and the reset option I used to have in the menu is gone since the update. Thanks though.',
  'Remove the mouse from the list of devices, restart, and pair it again: pairings carried over from older versions cause exactly this.',
];

describe('signature boxes: one list for the chrome rules and the thread finder', () => {
  it('names a signature by a whole token, with or without its "-" and "_"', () => {
    for (const name of ['signature', 'post_signature', 'post-signature', 'signature_container', 'SignatureContainer', 'sign']) {
      expect(isSignatureName(name)).toBe(true);
    }
    // Sphinx's function signature ("dt.sig") is a docs page's content; a bar's "signature-cocktails" a menu.
    for (const name of ['sig', 'signature-cocktails', 'signup', 'design']) expect(isSignatureName(name)).toBe(false);
  });

  it('does not take a signature styled as a post ("post_signature postmsg") for one of the thread’s posts', () => {
    const post = (message: string, i: number) =>
      `<div class="blockpost"><div class="postleft"><dl><dt>user${i}</dt><dd>Posts: 14${i}</dd></dl></div>` +
      `<div class="postright"><div class="postmsg"><p>${message}</p></div><div class="post_signature postmsg"><hr><p>Laptop: ThinkPad T14 running sway on Arch Linux</p></div></div></div>`;
    const posts = threadPosts(body(`<main><h1>Mouse lost after sleep</h1>${POSTS.map(post).join('')}</main>`));
    expect(posts.map((found) => textOf(found))).toEqual(POSTS);
  });

  it('removes a signature box named "signature_container" from the page', () => {
    const page = parseDocument(
      `<body><main><h1>Mouse lost after sleep</h1><div class="post"><p>${POSTS[0]}</p>` +
        '<div class="signature_container">Laptop: ThinkPad T14 running sway</div></div></main></body>',
    );
    removeChrome(page);
    expect(textOf(page.body)).toContain('wireless mouse');
    expect(textOf(page.body)).not.toContain('ThinkPad');
  });
});

/** A content root as Readability hands it on: `html` after a paragraph of the opening post. */
const root = (html: string) => parseDocument(`<body><div><p>${POSTS[0]}</p>${html}</div></body>`).body.firstElementChild!;
const pruned = (html: string) => {
  const element = root(html);
  pruneBoilerplate(element);
  return textOf(element);
};

describe('member cards by their post count', () => {
  it('removes a card whose only count is its post count, as a span of a rank and the count (Vanilla)', () => {
    const out = pruned(
      '<div class="AuthorWrap"><span class="Author"><a href="/profile/wren">wheel_thrown_wren</a></span>' +
        '<span class="AuthorInfo"><span class="RoleTitle">Full Member</span> <span class="PostCount">Posts: 87</span></span></div>' +
        `<div class="Body"><p>${POSTS[1]}</p></div>`,
    );
    expect(out).not.toContain('Posts: 87');
    expect(out).not.toContain('Full Member');
    expect(out).not.toContain('wheel_thrown_wren');
    expect(out).toContain('grab the connection on wake');
  });

  it('removes a card laid out as a list of short lines, one of them the count (SMF)', () => {
    const out = pruned(
      '<div class="poster"><h4><a href="/u/1">reefless</a></h4><ul class="user_info"><li>Newbie</li><li>Posts: 14</li>' +
        `<li>60 litre community tank</li><li>Logged</li></ul></div><div class="post"><p>${POSTS[2]}</p></div>`,
    );
    expect(out).not.toContain('Newbie');
    expect(out).not.toContain('Logged');
    expect(out).toContain('the reset option');
  });

  it('removes a join date and post count written as one span (phpBB subSilver2)', () => {
    const out = pruned(
      '<span class="postdetails"><br><b>Joined:</b> Sat Feb 06, 2016 7:40 pm<br><b>Posts:</b> 212<br><b>Location:</b> Kent</span>',
    );
    expect(out).not.toContain('Joined');
    expect(out).not.toContain('Posts: 212');
  });

  it('keeps a sentence or a list that gives a count of posts', () => {
    const sentence = 'Posts: 3 of them were about the new filter, which nobody has tried yet.';
    expect(pruned(`<p>${sentence}</p>`)).toContain(sentence);
    const list = '<ul><li>Posts: 40</li><li>The forum moved to a new server last spring and lost a week of posts on the way.</li></ul>';
    expect(pruned(list)).toContain('lost a week of posts');
  });
});

describe('per-post chrome of old forums', () => {
  it('removes the links back to the page’s top under each post, in any language, and keeps other in-page links', () => {
    const out = pruned(
      // In the post's table row, as subSilver2 lays it out: no block of its own to judge.
      '<table><tr><td><strong><a href="#wrapheader">Top</a></strong></td><td><a href="#top">Nach oben ↑</a></td></tr></table>' +
        '<p>As <a href="#p2">the second post</a> says, pair the mouse again first.</p>',
    );
    expect(out).not.toMatch(/Top|Nach oben/);
    expect(out).toContain('the second post says');
  });

  it('removes a signature set off by a row of underscores at the end of the post’s box, and keeps footnotes after one', () => {
    const out = pruned(
      `<div class="postbody">${POSTS[1]}<br>_________________<br>8" f/6 Dob, 10x50s, too many eyepieces</div>` +
        '<div class="notes">__________<p>1. The first note says where the figure came from.</p></div>',
    );
    expect(out).toContain('grab the connection on wake');
    expect(out).not.toContain('_________________');
    expect(out).not.toContain('too many eyepieces');
    expect(out).toContain('The first note says where the figure came from.');
  });

  it('removes a post’s date line beside an icon, and keeps a date line beside a picture', () => {
    const out = pruned(
      '<div><img src="/icon_post_target.gif" width="12" height="9" alt="Post"><b>Posted:</b> Mon Mar 03, 2025 9:15 pm</div>' +
        `<p>${POSTS[1]}</p><p>${POSTS[2]}</p><p>${POSTS[3]}</p><div><img src="/harbour.jpg" alt="The harbour at dawn">Published March 3, 2025</div>`,
    );
    expect(out).not.toContain('Posted:');
    expect(out).toContain('Published March 3, 2025');
  });
});

/**
 * A self-hosted recipe manager's page: its schema.org block names the recipe but not its
 * ingredients, which sit in a column of their own beside the method, as a role="list" of blocks.
 */
const STEPS = [
  'Mix the flour and water until no dry flour is left, cover the bowl and leave it to rest for forty minutes.',
  'Add the starter and the salt, squeeze them through the dough, then fold it four times over the next two hours.',
  'Shape the dough into a tight ball, put it seam side up in a floured basket, cover it and leave it in the fridge overnight.',
  'Heat the oven with a lidded pot inside to 250 °C, turn the dough out, score it and bake for twenty minutes covered.',
  'Take the lid off and bake for another twenty-five minutes, until the crust is deep brown, then cool it on a rack.',
];
const INGREDIENTS = ['500 g strong bread flour', '350 g water, lukewarm', '100 g active sourdough starter', '10 g fine sea salt'];
const RECIPE_MANAGER_PAGE =
  '<html><head><title>Weeknight Sourdough Boule</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Weeknight Sourdough Boule","recipeYield":"1 loaf"}</script></head>' +
  '<body><main><div class="v-card"><div class="title">Weeknight Sourdough Boule</div>' +
  '<div class="row"><div class="col-4"><h2>Ingredients</h2><hr><div role="list" class="v-list">' +
  INGREDIENTS.map((line) => `<div class="v-list-item"><input type="checkbox"><div class="note"><p>${line}</p></div></div>`).join('') +
  '</div></div><div class="col-8"><section><h2>Instructions</h2>' +
  STEPS.map((step, i) => `<div class="step"><h3>Step ${i + 1}</h3><p>${step}</p></div>`).join('') +
  '</section></div></div></div></main></body></html>';

describe('a recipe that declares itself one but not its ingredients', () => {
  it('reads the ingredient lines from the list under its "Ingredients" heading, in any of our languages', () => {
    expect(readStructuredData(parseDocument(RECIPE_MANAGER_PAGE)).ingredients).toEqual(INGREDIENTS);
    const polish = RECIPE_MANAGER_PAGE.replace('<h2>Ingredients</h2><hr>', '<h3>Składniki</h3><p>4 porcje</p>');
    expect(readStructuredData(parseDocument(polish)).ingredients).toEqual(INGREDIENTS);
  });

  it('reads none on a page that is no recipe', () => {
    const article = RECIPE_MANAGER_PAGE.replace('"@type":"Recipe"', '"@type":"Article"');
    expect(readStructuredData(parseDocument(article)).ingredients).toEqual([]);
  });

  it('extracts the ingredients with the method, not the method alone', () => {
    const out = createContentExtractor().extract(RECIPE_MANAGER_PAGE, 'https://example.com/r', { text: true }).text ?? '';
    expect(out).toContain('Take the lid off');
    for (const line of INGREDIENTS) expect(out).toContain(line);
  });
});

/** A link aggregator's thread (kbin): the entry's body "content formatted", each comment's "content", in comment boxes. */
const aggregatorThread = (opening: string) =>
  `<main><article class="entry subject"><header><h1>Does hot composting kill weed seeds?</h1></header>` +
  `<div class="content formatted"><p>${opening}</p></div></article><section class="comments entry-comments">` +
  POSTS.slice(1)
    .map(
      (reply, i) =>
        `<blockquote class="section comment entry-comment"><header><a href="/u/${i}">member${i}</a></header><div class="content"><p>${reply}</p></div></blockquote>`,
    )
    .join('') +
  '</section></main>';

describe('a thread whose replies are built by the opening post’s template less a modifier', () => {
  const isBox = (element: Element) => /(^|\s)comments?(\s|$)/.test(element.getAttribute('class') ?? '');

  it('is a thread, and its replies are extracted with the opening post', () => {
    expect(repliesShareThePostTemplate(body(aggregatorThread(POSTS[0]!)), isBox)).toBe(true);
    const out = createContentExtractor().extract(aggregatorThread(POSTS[0]!), 'https://example.com/t', { text: true }).text ?? '';
    for (const post of POSTS) expect(out).toContain(post);
  });

  it('is no thread when the opening block is an article that outweighs every comment', () => {
    const article = Array.from({ length: 9 }, () => POSTS[0]).join(' ');
    expect(repliesShareThePostTemplate(body(aggregatorThread(article)), isBox)).toBe(false);
  });
});

describe('nutrition panels: energy, languages, and a long serving line', () => {
  it('reads a panel that gives energy in kJ or kcal, and nutrients named after their amount words', () => {
    expect(isNutritionPanel('Nutrition (per serving) Energy 1712kJ Fat total 24g Protein 19g Carbohydrate 27g')).toBe(true);
    expect(isNutritionPanel('Valori nutrizionali per porzione Energia 238 kcal Proteine 14 g Grassi 18 g')).toBe(true);
    expect(isNutritionPanel('Nährwerte pro Portion Energie 1250 kJ Eiweiß 12 g Fett 9 g')).toBe(true);
  });

  it('reads a panel whose serving line is long when it names five nutrients or more', () => {
    expect(
      isNutritionPanel(
        'Nutrition Facts 1 chicken thigh with about 2 tablespoons sauce: 290 calories, 21g fat (5g saturated fat), 81mg cholesterol, 682mg sodium, 2g carbohydrate, 23g protein.',
      ),
    ).toBe(true);
  });

  it('keeps a sentence of the method that names energy and amounts', () => {
    expect(
      isNutritionPanel('The energy of a hot oven sets the 200 g of batter in minutes, so keep the door shut and check after 25 minutes.'),
    ).toBe(false);
    expect(
      isNutritionPanel('Each slice has about 250 calories, 12g fat and 4g protein, so it makes a filling snack for a long walk.'),
    ).toBe(false);
  });
});
