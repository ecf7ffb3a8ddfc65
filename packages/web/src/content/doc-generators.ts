/**
 * Pages made by documentation generators and docs-site themes, mended before extraction.
 *
 * Their chrome (rustdoc, Doxygen, ExDoc, javadoc, Redoc, pkg.go.dev, kramdown): a generator
 * writes the same markup on every site that uses it, so its class names and ids say what a block
 * is as reliably as a landmark role: a "source" link, a collapse toggle, a summary table that
 * repeats the member docs below it, the list of traits every type gets for free. Each rule names
 * its generator; none looks at a page's words.
 *
 * And their content, which general rules misread: a signature's linked type names, a response
 * written inside a button, a heading boxed with its permalink, a callout set as an aside.
 */
import { Readability } from '@mozilla/readability';
import { forgetName, textOf } from './dom';
import { CALLOUT } from './boilerplate-cues';

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
  'table.memberSummary > caption',
  // ExDoc
  'a.icon-action[rel="help"]',
  'a.detail-link',
  'h1 > small.app-vsn',
  // Redoc
  '.redoc-wrap .react-tabs__tab-list',
  '.redoc-wrap td[kind="field"] > div',
  // TypeDoc's flag on a parameter, written "?" in the signature above it
  '.tsd-parameter-list code.tsd-tag',
  // VitePress's language label over a code block ("ts")
  'div[class^="language-"] > span.lang',
  // kramdown's table of contents (Jekyll themes: Just the Docs), in its disclosure box or not
  'details:has(> #markdown-toc)',
  '#markdown-toc',
  // ExDoc's summary: each function's signature and first line, repeated in full below.
  'section#summary.details-list',
].join(', ');

/** rustdoc marks its body (`<body class="rustdoc struct">`); older versions only its generator meta. */
function markRustdoc(document: Document): void {
  const generator = document.querySelector('meta[name="generator" i]')?.getAttribute('content') ?? '';
  if (/^rustdoc\b/i.test(generator)) document.body?.classList.add('rustdoc');
}

/** Doxygen's page footer inside the content: "The documentation for this class was generated from the following file:" and the file list after its rule. */
const DOXYGEN_GENERATED_FROM = /^The documentation for this .{1,40} generated from the following files?:?$/;

/**
 * pkg.go.dev writes every section of a package's index, empty or not: "Constants" over "This
 * section is empty." (`p.Documentation-empty`). The note and its heading go together.
 */
function removePkgGoDevEmptySections(body: HTMLElement): void {
  for (const note of Array.from(body.querySelectorAll('p.Documentation-empty'))) {
    const heading = note.previousElementSibling;
    if (heading && /^H[1-6]$/.test(heading.tagName)) heading.remove();
    note.remove();
  }
}

function removeDoxygenGeneratedFrom(body: HTMLElement): void {
  for (const rule of Array.from(body.querySelectorAll('#doc-content .contents > hr'))) {
    const note = rule.nextSibling;
    if (!note || !DOXYGEN_GENERATED_FROM.test((note.textContent ?? '').trim())) continue;
    const list = note.nextSibling?.nodeType === 1 ? note.nextSibling : note.nextSibling?.nextSibling;
    if (list && (list as Element).tagName === 'UL') (list as Element).remove();
    note.remove();
    rule.remove();
  }
}

/** Removes the chrome documentation generators write into their pages, in place. */
function removeGeneratorChrome(document: Document): void {
  const body = document.body;
  if (!body) return;
  markRustdoc(document);
  for (const element of Array.from(body.querySelectorAll(GENERATOR_CHROME))) if (element.isConnected) element.remove();
  removeDoxygenGeneratedFrom(body);
  removePkgGoDevEmptySections(body);
}

/** Makes `element` an h1 (keeping its children), or nothing when the page has an h1 of its own. */
function makeTitle(element: Element | null): void {
  if (!element || element.ownerDocument.querySelector('h1')) return;
  const heading = element.ownerDocument.createElement('h1');
  while (element.firstChild) heading.appendChild(element.firstChild);
  element.replaceWith(heading);
}

/**
 * Renames `element` to `tag`, keeping its id and children. Not its class: ExDoc's "signature"
 * is a forum's signature by name.
 */
function rename(element: Element, tag: string): void {
  const renamed = element.ownerDocument.createElement(tag);
  const id = element.getAttribute('id');
  if (id) renamed.setAttribute('id', id);
  while (element.firstChild) renamed.appendChild(element.firstChild);
  element.replaceWith(renamed);
}

/**
 * Gives a generated page one h1, its title, as the rest of extraction expects:
 * - Doxygen writes the title as `div.headertitle > div.title` and no h1 at all;
 * - javadoc writes it as the header's `h2.title` ("Class TokenBucketLimiter");
 * - ExDoc writes each section ("Summary", "Functions") and each function's signature as an h1
 *   besides the module's name: sections become h2 and signatures h3.
 */
function normaliseGeneratorHeadings(document: Document): void {
  const body = document.body;
  if (!body) return;
  makeTitle(body.querySelector('#doc-content .headertitle > .title'));
  makeTitle(body.querySelector('.header > h2.title'));
  for (const heading of Array.from(body.querySelectorAll('h1.section-heading'))) rename(heading, 'h2');
  for (const heading of Array.from(body.querySelectorAll('.detail-header > h1.signature'))) rename(heading, 'h3');
}

/**
 * A code block's links are cross-references (rustdoc, ExDoc and javadoc link every type name in
 * a signature: `@spec take(<a>t</a>(), <a>term</a>())`), not navigation; Readability counts them
 * as links and drops a short signature's box as "a little linky". They become plain text (a
 * code block in markdown holds no links anyway).
 */
function unlinkCodeBlocks(document: Document): void {
  for (const anchor of Array.from(document.querySelectorAll('pre a'))) {
    while (anchor.firstChild) anchor.parentNode?.insertBefore(anchor.firstChild, anchor);
    anchor.remove();
  }
}

/** Words enough to say something: four or more. */
const SENTENCE = /^\S+(\s+\S+){3,}/u;

/**
 * A button holding a paragraph is a disclosure's header written out in full (Redoc lists an
 * operation's responses as `<button><strong>201</strong><div><p>Shipment created.</p></div></button>`):
 * its text is the page's, not a control's label, and stays when the controls go. A sentence, not
 * a label in a paragraph (Medium's `<button><p>Listen</p></button>`).
 */
function unwrapParagraphButtons(document: Document): void {
  for (const button of Array.from(document.querySelectorAll('button'))) {
    if (!Array.from(button.querySelectorAll('p')).some((p) => SENTENCE.test(textOf(p)))) continue;
    const box = document.createElement('div');
    while (button.firstChild) box.appendChild(button.firstChild);
    button.replaceWith(box);
  }
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
const HEADING_IN_BOX = ['div', 'section'].flatMap((box) => ['h2', 'h3', 'h4', 'h5', 'h6'].map((h) => `${box} > ${h}`)).join(', ');
function unwrapHeadingWrappers(document: Document): void {
  for (const heading of Array.from(document.querySelectorAll(HEADING_IN_BOX))) {
    const box = heading.parentElement;
    if (!box || (box.tagName !== 'DIV' && box.tagName !== 'SECTION') || textOf(box) !== textOf(heading) || box.querySelector('img, picture, pre, table, p')) continue;
    if (box.querySelectorAll('h1, h2, h3, h4, h5, h6').length !== 1) continue;
    // A div is a heading's box by the permalink beside it (a forum's user box around its name is not).
    const permalink = Array.from(box.querySelectorAll('a[href^="#"]')).some((a) => !heading.contains(a));
    if (box.tagName === 'DIV' && !permalink) continue;
    const id = box.getAttribute('id');
    if (id && !heading.hasAttribute('id')) heading.setAttribute('id', id);
    box.replaceWith(heading);
  }
}

/** Readability's own class words that weigh a box down, from the version installed. */
const READABILITY_NEGATIVE = (Readability.prototype as unknown as { REGEXPS: { negative: RegExp } }).REGEXPS.negative;

/** A class naming a docs callout box outright (Mintlify's "callout", Sphinx's and Docusaurus's "admonition"). */
const CALLOUT_BOX = /(^|\s)[\w-]*(callout|admonition)[\w-]*(\s|$)/i;

/**
 * A docs site's callouts (notes, tips, warnings) are the page's text, but Readability drops
 * them: it removes every aside (Starlight writes its notes as `<aside class="starlight-aside">`),
 * and weighs a box by words in its classes, where utility classes read as chrome (Mintlify's
 * warning box is "callout … overflow-hidden"). A callout aside in the article becomes a div, and
 * a callout box whose names Readability weighs as chrome loses them (only then: a box's weight
 * also decides which block Readability picks as the article).
 */
function mendCallouts(document: Document): void {
  for (const aside of Array.from(document.querySelectorAll('main aside, article aside'))) {
    if (!CALLOUT.test(aside.getAttribute('class') ?? '')) continue;
    const box = document.createElement('div');
    while (aside.firstChild) box.appendChild(aside.firstChild);
    aside.replaceWith(box);
  }
  for (const box of Array.from(document.querySelectorAll('div[class]'))) {
    const names = box.getAttribute('class') ?? '';
    if (CALLOUT_BOX.test(names) && READABILITY_NEGATIVE.test(names)) forgetName(box);
  }
}

/**
 * Asciidoctor (Antora's sites, every AsciiDoc page) wraps each paragraph in a box of its own,
 * `<div class="paragraph"><p>…</p></div>`. Readability judges the box, not the paragraph, and
 * drops a short paragraph that is mostly a cross-reference ("See <a>Metrics and health
 * checks</a> for how to scrape them.") as "a little linky". The box gives way to its paragraph.
 */
function unwrapAsciidocParagraphs(document: Document): void {
  for (const box of Array.from(document.querySelectorAll('div.paragraph'))) {
    const only = box.firstElementChild;
    if (only?.tagName === 'P' && box.children.length === 1) box.replaceWith(only);
  }
}

/**
 * Mends a page made by a documentation generator before anything reads it: its chrome goes and
 * its title becomes its one h1. Runs before the page's heading is read (a "View Source" link
 * sits inside ExDoc's h1).
 */
export function prepareGeneratedPage(document: Document): void {
  removeGeneratorChrome(document);
  unlinkCodeBlocks(document);
  unwrapParagraphButtons(document);
  unwrapHeadingWrappers(document);
  mendCallouts(document);
  unwrapAsciidocParagraphs(document);
  normaliseGeneratorHeadings(document);
}
