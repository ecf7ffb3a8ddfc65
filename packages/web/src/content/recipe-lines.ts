/**
 * A recipe page's lines that the block rules would misjudge, or never see: an ingredient's amount
 * written apart from its words (kept), its card's controls written as links and its taxonomy rows
 * (removed). Only called on a recipe's page (`PageKind.reviewed`, not a shop).
 */
import { textOf } from './dom';
import { RECIPE_CONTROL, RECIPE_TAXONOMY_LABEL, STEP_LABEL } from './boilerplate-cues';
import type { PageKind } from './page-kind';

/** An ingredient's amount alone in its element: a count, a decimal or a fraction ("2", "1.5", "1/2", "1 1/2"). */
const AMOUNT = /^\d{1,4}([.,]\d{1,3})?(\s?\d{1,2}\/\d{1,2})?$|^\d{1,2}\s?\/\s?\d{1,2}$/u;

/** The text that follows `element` in its parent (the next non-blank node's). */
function textAfter(element: Element): string {
  for (let node = element.nextSibling; node; node = node.nextSibling) {
    const text = textOf(node);
    if (text) return text;
  }
  return '';
}

/**
 * On a recipe's page, an amount written apart from what it measures ("<span>1/2</span> <span>cup
 * butter</span>", Condé Nast's amount and description divs): the ingredient's line goes on in
 * words after it. A slide's counter or a tally has no words after it, or a step's label
 * ("<div>1</div> Step 1", judged as the label's).
 */
export function isIngredientAmount(element: Element, text: string, page: PageKind): boolean {
  if (page.reviewed !== true || page.shop === true || !AMOUNT.test(text)) return false;
  const after = textAfter(element);
  return /^\p{L}/u.test(after) && !STEP_LABEL.test(after);
}

/** Whether `node` stands as a block of its own among its siblings: no text runs on before or after it. */
export function standsAlone(node: Element): boolean {
  const blank = (sibling: Node | null) => !sibling || sibling.nodeType !== 3 || (sibling.textContent ?? '').trim() === '';
  return blank(node.previousSibling) && blank(node.nextSibling);
}

/**
 * A recipe card's controls written as links rather than buttons ("Add to shopping list",
 * "Print"), standing alone beside the ingredients: a link is no block the block rules judge,
 * and its box holds the ingredients too. A link in a sentence ("you can print it") stays.
 */
export function removeControlLinks(root: Element, touched: Set<Element>): void {
  for (const anchor of Array.from(root.querySelectorAll('a'))) {
    const text = textOf(anchor);
    if (text.length >= 60 || !RECIPE_CONTROL.test(text) || !standsAlone(anchor)) continue;
    if (anchor.parentElement) touched.add(anchor.parentElement);
    anchor.remove();
  }
}

/** Characters of a taxonomy row at most: a label and a few terms. */
const MAX_TAXONOMY_ROW = 120;

/** Words of one term of a taxonomy row at most ("Main Course", "Modern Australian"). */
const MAX_TERM_WORDS = 3;

/**
 * Whether what follows a taxonomy row's label reads as its terms: set off by a colon or a bar
 * ("Diet: | Vegan"), or short terms ("British", "Main Course, Side Dish"). Some labels are verbs
 * too (Spanish "Cocina", Italian "Cucina": "cook"), and a step goes on in a sentence after them
 * ("Cocina el arroz 18 minutos a fuego medio").
 */
function readsAsTerms(label: string, rest: string): boolean {
  if (/[:：|]$/u.test(label) || /^[:：|]/u.test(rest)) return true;
  return rest.split(/[,、|·•/]/u).every((term) => term.trim().split(/\s+/).length <= MAX_TERM_WORDS);
}

/**
 * A recipe card's taxonomy rows ("Course Cake", "Cuisine British", "Diet: Vegan", list items of
 * the card's meta list or blocks of their own): the label is an element of its own, the row's
 * first, so a sentence that starts with the word ("Course salt works too") is never one.
 */
export function removeRecipeTaxonomy(root: Element): void {
  for (const row of Array.from(root.querySelectorAll('li, div, p'))) {
    const label = row.firstElementChild;
    if (!label || label.children.length > 0 || !RECIPE_TAXONOMY_LABEL.test(textOf(label))) continue;
    const text = textOf(row);
    if (text.length <= textOf(label).length || text.length > MAX_TAXONOMY_ROW || /[.!?]$/.test(text)) continue;
    if (!readsAsTerms(textOf(label), text.slice(textOf(label).length))) continue;
    if ((row.firstChild?.textContent ?? '').trim() !== '' && row.firstChild !== label) continue;
    row.remove();
  }
}
