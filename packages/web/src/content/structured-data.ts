/**
 * What a page says about itself in schema.org terms: the types it declares in JSON-LD and
 * microdata (search engines read these for rich results, so sites keep them truthful), and the
 * `articleBody` and `description` JSON-LD gives, if any. Hints only: callers never output what they
 * read here (main-content.ts puts back the page's own paragraph that quotes them, not their text).
 */

import { collapseSpace, textOf } from './dom';
import { INGREDIENTS_HEADING } from './boilerplate-cues';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every JSON object in the page's JSON-LD blocks, @graph members included. */
function jsonLdObjects(document: Document): Array<{ [key: string]: Json }> {
  const found: Array<{ [key: string]: Json }> = [];
  const visit = (value: Json, depth: number): void => {
    // Real graphs are a few levels deep; a hostile one gets no deeper walk than this.
    if (depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    found.push(value);
    for (const key of ['@graph', 'mainEntity', 'acceptedAnswer', 'suggestedAnswer', 'comment', 'hasPart']) {
      const child = value[key];
      if (child !== undefined) visit(child, depth + 1);
    }
  };
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json" i]'))) {
    try {
      visit(JSON.parse(script.textContent ?? '') as Json, 0);
    } catch {
      // A broken block says nothing.
    }
  }
  return found;
}

function typesOf(object: { [key: string]: Json }): string[] {
  const type = object['@type'];
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^.*[/#:]/, ''));
}

export interface StructuredData {
  /** The schema.org types the page declares (JSON-LD @type, microdata itemtype), unprefixed. */
  types: Set<string>;
  /** The longest `articleBody` or `text` of an article-like JSON-LD object, collapsed. */
  articleBody: string;
  /** The longest `description` of an article-like or product JSON-LD object, collapsed: a recipe's intro, a product's blurb. */
  description: string;
  /** A recipe's ingredient lines (JSON-LD recipeIngredient, microdata itemprop), collapsed. */
  ingredients: string[];
}

const ARTICLE_TYPES = /Article$|^BlogPosting$|^Report$|^Recipe$|^HowTo$|^DiscussionForumPosting$/;
const DESCRIBED_TYPES = /Article$|^BlogPosting$|^Report$|^Recipe$|^HowTo$|^Product$/;

export function readStructuredData(document: Document): StructuredData {
  const types = new Set<string>();
  let articleBody = '';
  let description = '';
  let ingredients: string[] = [];
  for (const object of jsonLdObjects(document)) {
    const objectTypes = typesOf(object);
    for (const type of objectTypes) types.add(type);
    const body = object['articleBody'] ?? object['text'];
    if (typeof body === 'string' && objectTypes.some((t) => ARTICLE_TYPES.test(t))) {
      const collapsed = collapseSpace(body);
      if (collapsed.length > articleBody.length) articleBody = collapsed;
    }
    const listed = object['recipeIngredient'] ?? object['ingredients'];
    if (Array.isArray(listed) && listed.length > ingredients.length) {
      ingredients = listed.filter((line): line is string => typeof line === 'string').map(collapseSpace);
    }
    const about = object['description'];
    if (typeof about === 'string' && objectTypes.some((t) => DESCRIBED_TYPES.test(t))) {
      const collapsed = collapseSpace(about);
      if (collapsed.length > description.length) description = collapsed;
    }
  }
  for (const element of Array.from(document.querySelectorAll('[itemtype]'))) {
    for (const type of (element.getAttribute('itemtype') ?? '').split(/\s+/)) if (type) types.add(type.replace(/^.*[/#:]/, ''));
  }
  if (ingredients.length === 0) {
    ingredients = Array.from(document.querySelectorAll('[itemprop~="recipeIngredient" i], [itemprop~="ingredients" i]'))
      .map((element) => collapseSpace(element.textContent ?? ''))
      .filter(Boolean);
  }
  if (ingredients.length === 0 && types.has('Recipe')) ingredients = listUnderIngredientsHeading(document);
  return { types, articleBody, description, ingredients };
}

/** Elements looked past after the ingredients heading for its list (a rule, a servings line, a scale control). */
const MAX_BEFORE_LIST = 3;

/**
 * The lines of the list under a recipe's "Ingredients" heading, for a recipe page that declares
 * itself one but not its ingredients (a self-hosted recipe manager's schema.org block names the
 * recipe and its times only): a list, or a role="list" of blocks, the heading's next sibling or
 * nearly so.
 */
function listUnderIngredientsHeading(document: Document): string[] {
  const heading = Array.from(document.querySelectorAll('h2, h3, h4')).find((h) => INGREDIENTS_HEADING.test(textOf(h)));
  let list = heading?.nextElementSibling ?? null;
  for (let skipped = 0; list && skipped < MAX_BEFORE_LIST && !list.matches('ul, ol, [role="list"]'); skipped++)
    list = list.nextElementSibling;
  if (!list?.matches('ul, ol, [role="list"]')) return [];
  return Array.from(list.children).map(textOf).filter(Boolean);
}

/** Types that make the page a product's. */
const PRODUCT_TYPES = ['Product', 'ProductGroup', 'IndividualProduct', 'ProductModel', 'Offer', 'AggregateOffer'];
/** A shop's buying control, by its label. */
const BUY_CONTROL =
  /^\s*(add to (shopping |my )?(cart|basket|bag|trolley)|buy (it )?now|in den (warenkorb|einkaufswagen)|zum warenkorb hinzufügen|jetzt kaufen|ajouter au panier|acheter|añadir al carrito|agregar al carrito|comprar|aggiungi al carrello|acquista|dodaj do koszyka|kup teraz|in (mijn )?winkelwagen(tje)?|adicionar ao carrinho|lägg i varukorgen|læg i kurv|legg i handlekurven|lisää ostoskoriin|do košíku|kosárba|カートに入れる|今すぐ買う|加入购物车|立即购买|장바구니 담기|바로 구매)(?!\p{L})/iu;

/** Attributes naming a control for what it does, in code ("AddToCart", "js_pdp_add-to-basket"). */
const CONTROL_NAME = /add[\s_-]?to[\s_-]?(cart|basket|bag|trolley)|buy[\s_-]?now|add2cart/i;

/** The elements a buy control may be: a button, a submit input, a link styled as a button, WooCommerce's named one. */
export const BUY_CONTROL_CANDIDATES = 'button, input[type="submit"], a[role="button"], [name="add-to-cart"]';

/** Whether `control` (a button, a submit input, a link styled as a button) puts the product in the cart. */
export function isBuyControl(control: Element): boolean {
  const label = control.tagName === 'INPUT' ? (control.getAttribute('value') ?? '') : (control.textContent ?? '');
  if (label.length < 40 && BUY_CONTROL.test(label)) return true;
  if (control.getAttribute('name') === 'add-to-cart') return true;
  for (const { name, value } of Array.from(control.attributes)) {
    if ((name === 'class' || name === 'id' || name.startsWith('data-')) && CONTROL_NAME.test(value)) return true;
  }
  return false;
}

/**
 * Whether the page sells something: it declares a product (JSON-LD or microdata), marks a price
 * for search engines, or has a buying control. Read before the controls go (removeChrome).
 */
export function isShopPage(document: Document, data: StructuredData): boolean {
  if (PRODUCT_TYPES.some((type) => data.types.has(type))) return true;
  if (
    document.querySelector('[itemprop~="price" i], meta[property="product:price:amount" i], meta[property="og:type"][content="product" i]')
  )
    return true;
  if (document.querySelector('form[action*="cart" i], form[action*="basket" i]')) return true;
  const controls = document.querySelectorAll(BUY_CONTROL_CANDIDATES);
  return Array.from(controls).some(isBuyControl);
}

/** Types that make the page a thread: its replies are the content, not a comment section. */
const DISCUSSION_TYPES = ['QAPage', 'DiscussionForumPosting'];

export function declaresDiscussion(data: StructuredData): boolean {
  return DISCUSSION_TYPES.some((type) => data.types.has(type));
}

/** Whether the page declares a recipe (its readers' ratings and reviews are no part of it). */
export function declaresRecipe(data: StructuredData): boolean {
  return data.types.has('Recipe');
}
