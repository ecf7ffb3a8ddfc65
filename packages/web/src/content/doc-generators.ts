/**
 * Pages made by documentation generators and docs-site themes, mended before extraction.
 *
 * Their chrome (rustdoc, Doxygen, ExDoc, javadoc, Redoc, pkg.go.dev, TypeDoc, VitePress): a generator
 * writes the same markup on every site that uses it, so its class names and ids say what a block
 * is as reliably as a landmark role: a "source" link, a collapse toggle, a summary table that
 * repeats the member docs below it, the list of traits every type gets for free. Each rule names
 * its generator; none looks at a page's words.
 *
 * And their content, which general rules misread: a signature's linked type names, a response
 * written inside a button, a heading boxed with its permalink, a callout set as an aside.
 */
import { Readability } from '@mozilla/readability';
import { forgetName, retag, textOf } from './dom';
import { CALLOUT_BOX, namesCallout } from './boilerplate-cues';

/**
 * Blocks that are chrome wherever a generator writes them (its class names are its own, or
 * sit inside its own structure):
 * - rustdoc: the "source" links (`a.src`, older `a.srclink`), the out-of-band line beside the
 *   title ("source · [−]"), the "Expand description" label of the top doc's toggle, and the
 *   sections of implementations every type gets (auto traits, blanket impls) or derives
 *   (trait implementations, docs copied from the trait: "Returns a copy of the value. Read more").
 * - Doxygen: the member summary table (`table.memberdecls`, each entry repeated with its docs
 *   below), the "◆" permalinks of member titles, the qualifiers column of a member's prototype,
 *   and the header's jump links ("Public Member Functions | List of all members").
 * - javadoc: the class's inheritance tree (java.lang.Object > ... > the class, the title
 *   again) and a summary table's tab captions ("All Methods Instance Methods Concrete Methods").
 * - Redoc: the tab labels over request and response samples ("Payload", "201 422") and the
 *   labels under a schema field's name ("required", "deprecated"); its other classes are hashes.
 * - TypeDoc: a parameter's "Optional" flag, glued to its name ("Optionaloptions") and written
 *   as "options?" in the signature above.
 * - VitePress: the language label over each code block (`<div class="language-ts"><span class="lang">ts</span><pre>`).
 * - ExDoc (hexdocs): the "View Source" links and in-page link icons beside every heading.
 */
const GENERATOR_CHROME = [
  // rustdoc
  '.rustdoc a.src',
  '.rustdoc a.srclink',
  '.rustdoc .out-of-band',
  '.rustdoc summary.hideme',
  '.rustdoc #trait-implementations',
  '.rustdoc #trait-implementations-list',
  '.rustdoc #synthetic-implementations',
  '.rustdoc #synthetic-implementations-list',
  '.rustdoc #blanket-implementations',
  '.rustdoc #blanket-implementations-list',
  // Doxygen
  'table.memberdecls',
  '.memtitle > .permalink',
  '.memproto td.mlabels-right',
  '#doc-content > .header > .summary',
  // javadoc
  '.contentContainer > ul.inheritance',
  // ExDoc
  'a.icon-action[rel="help"]',
  // Its permalink beside each function's title (its class names are words any site uses: scoped to its structure).
  '.content-inner .detail-header > a.detail-link',
  'h1 > small.app-vsn',
  // Redoc
  '.redoc-wrap .react-tabs__tab-list',
  // TypeDoc's flag on a parameter, written "?" in the signature above it
  '.tsd-parameter-list code.tsd-tag',
  // VitePress's language label over a code block ("ts")
  'div[class^="language-"] > span.lang',
  // ExDoc's summary: each function's signature and first line, repeated in full below.
  'section#summary.details-list',
];

/** rustdoc marks its body (`<body class="rustdoc struct">`); older versions only its generator meta. */
function markRustdoc(document: Document): void {
  const generator = document.head?.querySelector('meta[name="generator" i]')?.getAttribute('content') ?? '';
  if (/^rustdoc\b/i.test(generator)) document.body?.classList.add('rustdoc');
}

/** Doxygen's page footer inside the content: "The documentation for this class was generated from the following file:" and the file list after its rule. */
const DOXYGEN_GENERATED_FROM = /^The documentation for this .{1,40} generated from the following files?:?$/;

/**
 * pkg.go.dev writes every section of a package's index, empty or not: "Constants" over "This
 * section is empty." (`p.Documentation-empty`). The note and its heading go together.
 */
function removePkgGoDevEmptySection(note: Element): void {
  const heading = note.previousElementSibling;
  if (heading && /^H[1-6]$/.test(heading.tagName)) heading.remove();
  note.remove();
}

function removeDoxygenGeneratedFrom(contents: Element): void {
  for (const rule of Array.from(contents.children)) {
    if (rule.tagName !== 'HR') continue;
    const note = rule.nextSibling;
    if (!note || !DOXYGEN_GENERATED_FROM.test((note.textContent ?? '').trim())) continue;
    const list = note.nextSibling?.nodeType === 1 ? note.nextSibling : note.nextSibling?.nextSibling;
    if (list && (list as Element).tagName === 'UL') (list as Element).remove();
    note.remove();
    rule.remove();
  }
}

/** Makes `element` an h1 (keeping its children), or nothing when the page has an h1 of its own. */
function makeTitle(element: Element): void {
  if (element.ownerDocument.querySelector('h1')) return;
  retag(element, 'h1');
}

/**
 * Renames `element` to `tag`, keeping its id and children. Not its class: ExDoc's "signature"
 * is a forum's signature by name.
 */
function rename(element: Element, tag: string): void {
  const id = element.getAttribute('id');
  const renamed = retag(element, tag);
  if (id) renamed.setAttribute('id', id);
}

/**
 * What each generator's markup asks for, by selector: its chrome goes; its footer and empty
 * sections go with their text; its title becomes the page's one h1, as the rest of extraction
 * expects:
 * - Doxygen writes the title as `div.headertitle > div.title` and no h1 at all;
 * - javadoc writes it as the header's `h2.title` ("Class TokenBucketLimiter");
 * - ExDoc writes each section ("Summary", "Functions") and each function's signature as an h1
 *   besides the module's name: sections become h2 and signatures h3.
 */
const GENERATOR_RULES: ReadonlyArray<readonly [string, (element: Element) => void]> = [
  ...GENERATOR_CHROME.map((selector) => [selector, (element: Element) => element.remove()] as const),
  ['#doc-content .contents', removeDoxygenGeneratedFrom],
  ['p.Documentation-empty', removePkgGoDevEmptySection],
  // javadoc's tab captions over a summary table ("All Methods Instance Methods").
  ['table.memberSummary', removeCaption],
  // Redoc's labels under a schema field's name ("required"), beside the name.
  ['.redoc-wrap td[kind="field"] > .property-name', removeLabelsBeside],
  ['#doc-content .headertitle > .title', makeTitle],
  ['.header > h2.title', makeTitle],
  ['.content-inner .details-list > h1.section-heading', (heading) => rename(heading, 'h2')],
  ['.detail-header > h1.signature', (heading) => rename(heading, 'h3')],
];

/**
 * The rules by the class (".src") or id ("#trait-implementations") their element carries: a page's
 * elements are looked up by their names, one walk, and matched against the few rules that
 * name them (a selector list of them all costs a walk per selector).
 */
function rulesByName(rules: typeof GENERATOR_RULES): Map<string, Array<(typeof GENERATOR_RULES)[number]>> {
  const byName = new Map<string, Array<(typeof GENERATOR_RULES)[number]>>();
  for (const rule of rules) {
    // The last compound's first class or id: ".rustdoc a.src" is looked up as ".src".
    const last = rule[0].split(/[\s>]+/).pop() ?? '';
    const name = /[.#][\w-]+/.exec(last)?.[0] ?? '';
    byName.set(name, [...(byName.get(name) ?? []), rule]);
  }
  return byName;
}
const RULES_BY_NAME = rulesByName(GENERATOR_RULES);

function removeCaption(table: Element): void {
  for (const child of Array.from(table.children)) if (child.tagName === 'CAPTION') child.remove();
}

function removeLabelsBeside(name: Element): void {
  for (const sibling of Array.from(name.parentElement?.children ?? [])) if (sibling.tagName === 'DIV') sibling.remove();
}

/** Applies the first of {@link GENERATOR_RULES} that matches `element`, if any. */
function mendGeneratorMarkup(element: Element, classes: string | null): void {
  const id = element.getAttribute('id');
  const names = id ? [`#${id}`] : [];
  if (classes) for (const name of classes.split(/\s+/)) if (name) names.push(`.${name}`);
  for (const name of names) {
    const rule = RULES_BY_NAME.get(name)?.find(([selector]) => element.matches(selector));
    if (rule) return rule[1](element);
  }
}

/**
 * A code block's links are cross-references (rustdoc, ExDoc and javadoc link every type name in
 * a signature: `@spec take(<a>t</a>(), <a>term</a>())`), not navigation; Readability counts them
 * as links and drops a short signature's box as "a little linky". They become plain text (a
 * code block in markdown holds no links anyway).
 */
function unlinkCodeLink(anchor: Element): void {
  while (anchor.firstChild) anchor.parentNode?.insertBefore(anchor.firstChild, anchor);
  anchor.remove();
}

/** Words enough to say something: four or more. */
const SENTENCE = /^\S+(\s+\S+){3,}/u;

/**
 * A button holding a paragraph is a disclosure's header written out in full (Redoc lists an
 * operation's responses as `<button><strong>201</strong><div><p>Shipment created.</p></div></button>`):
 * its text is the page's, not a control's label, and stays when the controls go. A sentence, not
 * a label in a paragraph (Medium's `<button><p>Listen</p></button>`).
 */
function unwrapParagraphButton(button: Element): void {
  if (!Array.from(button.querySelectorAll('p')).some((p) => SENTENCE.test(textOf(p)))) return;
  retag(button, 'div');
}

/**
 * A heading wrapped in a box of its own with its permalink (GitHub's rendered markdown:
 * `<div class="markdown-heading"><h2>Requirements</h2><a class="anchor" href="#requirements"><svg/></a></div>`;
 * GitBook's `<div id="create-an-endpoint"><h2>…</h2><div><a href="#create-an-endpoint"></a></div></div>`).
 * Readability drops a div whose text is all heading as holding "no useful content", and the
 * section's title goes with it: the box gives way to its heading (which takes the box's id, the
 * permalinks' target). So does a section holding only its heading (MDN writes "Examples" as
 * `<section><h2><a href="#examples">Examples</a></h2></section>` before the examples' own
 * sections), which would go as a title left without its list.
 */
/** A heading, its permalink and a wrapper of the permalink's. */
const MAX_HEADING_BOX_CHILDREN = 3;

function unwrapHeadingBox(heading: Element): void {
  const box = heading.parentElement;
  // A heading's own box holds it and its permalink's, no more (read first: a section's text is long).
  if (!box || (box.tagName !== 'DIV' && box.tagName !== 'SECTION') || box.children.length > MAX_HEADING_BOX_CHILDREN) return;
  if (textOf(box) !== textOf(heading) || box.querySelector('img, picture, pre, table, p')) return;
  if (box.querySelectorAll('h1, h2, h3, h4, h5, h6').length !== 1) return;
  // A div is a heading's box by the permalink beside it (a forum's user box around its name is not).
  const permalink = Array.from(box.querySelectorAll('a[href^="#"]')).some((a) => !heading.contains(a));
  if (box.tagName === 'DIV' && !permalink) return;
  const id = box.getAttribute('id');
  if (id && !heading.hasAttribute('id')) heading.setAttribute('id', id);
  box.replaceWith(heading);
}

/** Readability's own class words that weigh a box down, from the version installed. */
const READABILITY_NEGATIVE = (Readability.prototype as unknown as { REGEXPS: { negative: RegExp } }).REGEXPS.negative;

/**
 * A docs site's callouts (notes, tips, warnings) are the page's text, but Readability drops
 * them: it removes every aside (Starlight writes its notes as `<aside class="starlight-aside">`),
 * and weighs a box by words in its classes, where utility classes read as chrome (Mintlify's
 * warning box is "callout … overflow-hidden"). A callout aside in the article becomes a div, and
 * a callout box whose names Readability weighs as chrome loses them (only then: a box's weight
 * also decides which block Readability picks as the article).
 */
function mendCalloutAside(aside: Element): void {
  if (!namesCallout(aside.getAttribute('class') ?? '') || aside.closest('main, article') === null) return;
  retag(aside, 'div');
}

function mendCalloutBox(box: Element, classes: string): void {
  if (CALLOUT_BOX.test(classes) && READABILITY_NEGATIVE.test(classes)) forgetName(box);
}

/**
 * Asciidoctor (Antora's sites, every AsciiDoc page) wraps each paragraph in a box of its own,
 * `<div class="paragraph"><p>…</p></div>`. Readability judges the box, not the paragraph, and
 * drops a short paragraph that is mostly a cross-reference ("See <a>Metrics and health
 * checks</a> for how to scrape them.") as "a little linky". The box gives way to its paragraph.
 */
function unwrapAsciidocParagraph(box: Element, classes: string): void {
  if (!box.isConnected || !/(^|\s)paragraph(\s|$)/.test(classes)) return;
  const only = box.firstElementChild;
  if (only?.tagName === 'P' && box.children.length === 1) box.replaceWith(only);
}

const HEADING = /^H[2-6]$/;

/** Mends the docs content general rules misread (above) in `element`, told apart by its tag. */
function mendDocsContent(element: Element, classes: string | null): void {
  const tag = element.tagName;
  if (tag === 'PRE') for (const anchor of Array.from(element.querySelectorAll('a'))) unlinkCodeLink(anchor);
  else if (tag === 'BUTTON') unwrapParagraphButton(element);
  else if (tag === 'ASIDE') mendCalloutAside(element);
  else if (tag === 'DIV' && classes) {
    mendCalloutBox(element, classes);
    unwrapAsciidocParagraph(element, classes);
  } else if (HEADING.test(tag)) unwrapHeadingBox(element);
}

/**
 * Mends a page made by a documentation generator before anything reads it: its chrome goes and
 * its title becomes its one h1. Runs before the page's heading is read (a "View Source" link
 * sits inside ExDoc's h1).
 */
export function prepareGeneratedPage(document: Document): void {
  const body = document.body;
  if (!body) return;
  markRustdoc(document);
  // One walk of the page for every rule: a selector per rule would cost a walk each.
  for (const element of Array.from(body.querySelectorAll('*'))) {
    if (!element.isConnected) continue;
    const classes = element.getAttribute('class');
    mendGeneratorMarkup(element, classes);
    if (element.isConnected) mendDocsContent(element, element.getAttribute('class'));
  }
}
