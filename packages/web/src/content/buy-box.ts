/**
 * A shop page's buy box: the lines a shop writes around its add-to-cart control (the brand's
 * badge, the rating, the old price and the instalments, the variant pickers, stock, delivery,
 * returns, the seller, the payment promises). They are the same on every product page of the
 * shop, in whatever language, and none of them is the product's: of the run from the product's
 * title to its add-to-cart control, only the title, the price, headings, tables, feature lists
 * and prose stay.
 *
 * The box is told by its markup, not its words: the smallest element holding both the page's
 * title and its add-to-cart control. In it, every short line goes (but the first price) before
 * the control, and after it until the product's own content begins: a heading, a table, a list
 * of features, or a paragraph of prose. What follows that is left to the other rules. Stock
 * status stays too ("In stock", "Sold out", "Only 3 left"): a restock watch follows it.
 */
import { CURRENCY, PRICE, PRICE_LINE } from './boilerplate-cues';
import { textOf } from './dom';
import { isSectionTitle } from './section-titles';
import { isBuyControl } from './structured-data';

/** A line at least this long is prose (a description's sentence), not a buy box's notice; a paragraph, at least the shorter. */
const PROSE_LINE = 160;
const PROSE_PARAGRAPH = 100;
/** The product's description, named as such ("product-description", `itemprop="description"`). */
const DESCRIPTION = '[itemprop="description" i], [class*="description" i], [id*="description" i]';
/** A price struck through or named as the old one ("regular-price", "price--was", "uvp", "sales-price__former-price"). */
const OLD_PRICE =
  /(^|[\s_-])(regular|old|was|strike|strikethrough|crossed|list|uvp|rrp|compare|before|original|former|previous)([\s_-]|$)/i;
/** A stock status, in the languages of the shops the corpus holds. */
const STOCK_STATUS =
  /^(in stock|out of stock|sold out|only (\d+|a few) left|\d+ (left|in stock)|low stock|pre-?order|back-?order(ed)?|(currently )?(un)?available|auf lager|nicht (auf lager|lieferbar|verfügbar)|lieferbar|ausverkauft|vorrätig|en stock|rupture de stock|épuisé|(stock )?disponible|agotado|sin stock|esaurito|(non )?disponibile|(nie)?dostępny|wyprzedany|op voorraad|uitverkocht|在庫(あり|なし|切れ)|売り切れ|有货|无货|缺货|품절)(?!\p{L})/iu;
/** Items of a feature list, at least, each at least this long (a variant list's "500 ml" is none). */
const MIN_FEATURES = 3;
const FEATURE_TEXT = 20;

/** Elements that hold lines: a line is an element holding none of them. */
const BLOCK =
  /^(DIV|P|SECTION|ARTICLE|ASIDE|HEADER|FOOTER|NAV|MAIN|UL|OL|LI|DL|DT|DD|TABLE|THEAD|TBODY|TR|TD|TH|FORM|FIELDSET|FIGURE|FIGCAPTION|BLOCKQUOTE|PRE|H[1-6]|DETAILS|SUMMARY)$/;
const HEADING = /^H[1-6]$/;

/** What a variant picker's items are made of: controls, links, or names for a swatch or an option. */
const PICKER =
  'button, select, a, input:not([disabled]), [role="radio"], [role="option"], [class*="swatch" i], [class*="button" i], [class*="option" i]';

/** A promotion's amount: a price or a percentage ("5% Cashback", "worth ₹20,000"). */
const OFFER_AMOUNT = /\d\s?%/u;
/**
 * A promotion's words: what a shop offers on the sale, not what the product holds ("100%
 * wholegrain oats", "30% less sugar" are the product's).
 */
const OFFER_WORD =
  /(?<!\p{L})(offers?|cashback|cash back|off|discounts?|coupons?|vouchers?|promo( code)?|emi|bank|cards?|save|savings|deals?|worth|rabatt|gutschein|remise|réduction|descuento|cupón|sconto|rabat|korting)(?!\p{L})/iu;

/**
 * A list of the product's features, each item a phrase ("Flat, hidden element, easy to clean").
 * A list whose every item offers a price or a percentage off is the shop's offers ("5% Cashback
 * on ... card", "Extra 12% off"), not the product's features; a percentage alone is a feature's
 * ("Made with 100% wholegrain oats").
 */
function isFeatureList(element: Element): boolean {
  if (element.tagName !== 'UL' && element.tagName !== 'OL') return false;
  const items = Array.from(element.children)
    .filter((child) => child.tagName === 'LI')
    .map(textOf);
  return (
    items.length >= MIN_FEATURES &&
    items.every((item) => item.length >= FEATURE_TEXT) &&
    !items.every((item) => (PRICE.test(item) || OFFER_AMOUNT.test(item)) && OFFER_WORD.test(item))
  );
}

/**
 * A plain list, none of its items a picker's control ("Dishwasher safe", a task list of disabled
 * checkboxes): the product's, between its title and the control; a variant picker's "500 ml /
 * 750 ml / 1 l" is a list of buttons. After the control a plain list is the shop's ("Free returns",
 * "Pay on invoice").
 */
function isPlainList(element: Element): boolean {
  if (element.tagName !== 'UL' && element.tagName !== 'OL') return false;
  const items = Array.from(element.children).filter((child) => child.tagName === 'LI');
  // A price box may be a list too ("Was £64.99", "Now £49.99", "Save £15").
  return (
    items.length >= 2 &&
    items.every((item) => textOf(item) && !CURRENCY.test(textOf(item)) && !item.matches(PICKER) && !item.querySelector(PICKER))
  );
}

/** Blocks that are the product's own, wherever they stand. */
function isKept(element: Element): boolean {
  return (
    HEADING.test(element.tagName) ||
    element.tagName === 'TABLE' ||
    // A spec sheet written as a definition list ("<dt>Pomptype</dt><dd>Vibratiepomp</dd>") is a table too.
    element.tagName === 'DL' ||
    element.tagName === 'PRE' ||
    isFeatureList(element) ||
    element.matches(DESCRIPTION)
  );
}

/** Whether the block after `element` is the product's own. */
function isKeptNext(element: Element): boolean {
  const next = element.nextElementSibling;
  return next !== null && isKept(next);
}

function isLine(element: Element): boolean {
  if (!BLOCK.test(element.tagName) && element.tagName !== 'SPAN') return false;
  for (const child of Array.from(element.children)) if (BLOCK.test(child.tagName)) return false;
  return true;
}

/** An old price told by its words ("Was £64.99", "UVP 249,00 €", "Antes: $57.499"). */
const OLD_PRICE_TEXT = /^(was|before|previously|regular( price)?|list price|rrp|uvp|statt|antes|avant|prima|zamiast)(?!\p{L})/iu;

/**
 * Whether a class or id names `element` the old price. A modifier saying the price has one beside
 * it ("product-detail-price with-list-price", "has-compare-price") names the current price.
 */
function namedOldPrice(element: Element): boolean {
  return `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`
    .split(/\s+/)
    .some((name) => !/^(with|has)[_-]/i.test(name) && OLD_PRICE.test(name));
}

function isOldPrice(element: Element, box: Element): boolean {
  if (OLD_PRICE_TEXT.test(textOf(element))) return true;
  // A box that holds the title is a module around the product, whatever it is named ("price-module--regular").
  for (let node: Element | null = element; node && node !== box && !node.querySelector('h1'); node = node.parentElement) {
    if (node.tagName === 'DEL' || node.tagName === 'S' || namedOldPrice(node)) return true;
    for (const inner of Array.from(node.querySelectorAll('del, s'))) if (textOf(inner) === textOf(node)) return true;
  }
  return false;
}

/** A part of `line` struck through or named as the old price. */
function oldPriceParts(line: Element): Element[] {
  return Array.from(line.querySelectorAll('del, s, [class], [id]')).filter(
    (part) => part.tagName === 'DEL' || part.tagName === 'S' || namedOldPrice(part),
  );
}

/**
 * The price opening a line of parts, old prices aside ("<strong>$24.99</strong><span>When
 * purchased online</span>", "<s>€ 399,-</s> <strong>€ 349,-</strong>", "<span>Price £ 79</span>
 * <span>£79</span>"); and the rest of the line, which goes. A price further on is another's
 * ("Free delivery over <b>£50</b>").
 */
function pricePart(line: Element): { price: Element; rest: ChildNode[] } | null {
  const old = oldPriceParts(line);
  let opening = textOf(line);
  for (const part of old) opening = opening.replace(textOf(part), ' ');
  opening = opening.replace(/\s+/g, ' ').trim();
  const price = Array.from(line.querySelectorAll('*')).find((part) => {
    const text = textOf(part);
    return text && opening.startsWith(text) && PRICE_LINE.test(text) && CURRENCY.test(text) && !old.some((o) => o.contains(part));
  });
  if (!price) return null;
  const shown = shownPrice(line, price);
  const rest: ChildNode[] = [];
  for (let node: Element = shown; node !== line && node.parentElement; node = node.parentElement) {
    for (const sibling of Array.from(node.parentElement.childNodes)) if (sibling !== node) rest.push(sibling);
  }
  return { price: shown, rest };
}

/**
 * The price as shown, when the line says it twice: a screen reader's words ("Price £ 79") and
 * the figure beside them ("£79"). The figure without words is the one a reader sees.
 */
function shownPrice(line: Element, price: Element): Element {
  if (!/\p{L}/u.test(textOf(price).replace(CURRENCY, ''))) return price;
  const digits = textOf(price).replace(/\D/g, '');
  const shown = Array.from(line.querySelectorAll('*')).find((part) => {
    const text = textOf(part);
    return part !== price && !part.contains(price) && text.replace(/\D/g, '') === digits && !/\p{L}/u.test(text.replace(CURRENCY, ''));
  });
  return shown ?? price;
}

/**
 * The first add-to-cart control after the title (a sticky bar's copy may come before it), else
 * the last before it; `leads` says it stands before the title.
 */
function buyControl(body: Element, title: Element): { control: Element; leads: boolean } | undefined {
  const elements = Array.from(body.querySelectorAll('*'));
  const after = elements.indexOf(title);
  const controls = elements.filter(
    (element) =>
      (element.tagName === 'BUTTON' ||
        (element.tagName === 'INPUT' && /^(submit|button)$/i.test(element.getAttribute('type') ?? '')) ||
        element.getAttribute('role') === 'button') &&
      isBuyControl(element),
  );
  const following = controls.find((control) => elements.indexOf(control) > after);
  if (following) return { control: following, leads: false };
  return controls.length > 0 ? { control: controls[controls.length - 1]!, leads: true } : undefined;
}

/** The page's own landmarks: a box holding one of them is the page, not a product's box. */
const PAGE_LANDMARKS = 'header, nav, footer, [role="banner"], [role="navigation"], [role="contentinfo"]';

/**
 * The control's own box: its nearest ancestor holding text beside the control's label (the order
 * box with its promises), if that holds no title. A list in it is the shop's ("Gratis
 * retourneren binnen 30 dagen", "Zakelijk bestellen?"), however long its items.
 */
function orderBox(control: Element, title: Element, box: Element): Element | null {
  const label = textOf(control).length;
  for (let node = control.parentElement; node && node !== box; node = node.parentElement) {
    if (node.contains(title)) return null;
    if (textOf(node).length > label) return node;
  }
  return null;
}

/** Text compared for a title: letters and digits only, lower case. */
const comparable = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The product's title among the page's h1s: the only one, or the one the document's title opens
 * with when several are h1s (Amazon's "About this item" is one too).
 */
export function productTitle(titles: Element[], document: Document): Element | undefined {
  if (titles.length <= 1) return titles[0];
  const page = comparable(document.title ?? '');
  const named = titles.filter((h) => {
    const text = comparable(textOf(h));
    return text.length > 0 && page.startsWith(text);
  });
  return named.length === 1 ? named[0] : undefined;
}

/**
 * Removes the buy box's lines from `body` of a shop page, while its controls are still there to
 * find it by. `title` is the product's title (the page's one h1).
 */
export function pruneBuyBox(body: Element, title: Element): void {
  const found = buyControl(body, title);
  if (!found) return;
  const { control } = found;
  let box: Element | null = control.parentElement;
  while (box && !box.contains(title)) box = box.parentElement;
  if (!box || box === body || box.tagName === 'HTML') return;
  // A control before the title in a box of the product's own (a left column of pictures and
  // buttons beside the title's column): the box's lines after the title are the buy box's, as
  // after a control that follows the title. A box holding the page's landmarks is the page
  // itself (a sticky bar's control at its top): there the title opens nothing.
  const titleOpens = found.leads && box.querySelector(PAGE_LANDMARKS) === null;
  const order = orderBox(control, title, box);
  const lines: ChildNode[] = [];
  let priceKept = false;
  let afterControl = false;
  // Where the title opens the box, the product's content can only begin after it.
  let titlePassed = !titleOpens;
  /** Collects the lines under `parent`; false once the product's content begins after the control. */
  const walk = (parent: Element): boolean => {
    for (const element of Array.from(parent.children)) {
      if (element === control) {
        afterControl = true;
        continue;
      }
      if (element === title && titleOpens) {
        titlePassed = true;
        continue;
      }
      // A section's title over the product's content ("Highlights" over its feature list) is the content's.
      const promises = afterControl && order !== null && order.contains(element) && isFeatureList(element);
      if ((isKept(element) && !promises) || (afterControl && isSectionTitle(element) && isKeptNext(element))) {
        if (afterControl && titlePassed) return false;
        continue;
      }
      if (!afterControl && isPlainList(element)) continue;
      if (element.contains(control) || element.contains(title) || !isLine(element)) {
        if (!walk(element)) return false;
        continue;
      }
      const text = textOf(element);
      if (!text) continue;
      if (text.length >= PROSE_LINE || (element.tagName === 'P' && text.length >= PROSE_PARAGRAPH)) {
        if (afterControl && titlePassed) return false;
        continue;
      }
      if (STOCK_STATUS.test(text)) continue;
      // A price on its own line is the one line of the box that stays.
      if (!priceKept && PRICE_LINE.test(text) && CURRENCY.test(text) && !isOldPrice(element, box!)) {
        priceKept = true;
        continue;
      }
      const part = priceKept ? null : pricePart(element);
      if (part && !isOldPrice(part.price, box!)) {
        priceKept = true;
        lines.push(...part.rest);
        // The figure shown was hidden from screen readers only because its words were there for them.
        for (let node: Element | null = part.price; node && node !== element; node = node.parentElement)
          node.removeAttribute('aria-hidden');
        continue;
      }
      lines.push(element);
    }
    return true;
  };
  walk(box);
  for (const line of lines) line.remove();
}
