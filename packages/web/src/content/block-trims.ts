/**
 * Trims inside blocks the content keeps whole: a code table's line-number gutter, a caption's
 * closing credit, and on a shop page the table rows about the sale rather than the product.
 */
import { textOf } from './dom';
import { CREDIT, SALE_ROW_LABEL, TRAILING_CREDIT } from './boilerplate-cues';

/**
 * Line-number gutters of highlighted code (Pygments, Rouge): a table cell's pre of nothing but
 * numbers beside the code's own. The table around them was only layout: the code stays, as code.
 */
export function removeCodeGutters(root: Element): void {
  for (const gutter of Array.from(root.querySelectorAll('td pre'))) {
    if (!/^[\d\s]+$/.test(gutter.textContent ?? '')) continue;
    const table = gutter.closest('table');
    gutter.remove();
    const code = table?.querySelectorAll('pre');
    if (table && code?.length === 1 && textOf(table) === textOf(code[0]!)) table.replaceWith(code[0]!);
  }
}

/**
 * The wire services' own form of a credit in parentheses, "(Photo by A. Name/Agency)", "(AP
 * Photo/Name)": outside a figure only this is one. A paragraph's "(image: at least 512 by 512
 * pixels)" or "(Foto: 12 MP, Video: 4K)" is its text.
 */
const AGENCY_CREDIT = /^\(((AP|AFP|Reuters|EPA|dpa)[- ])?(photo(graph)?s?|foto(s|grafía|grafia)?)\s*(by\b|\/)/iu;

/**
 * A credit at the end of a caption ("... on April 21, 2024. (Photo by A. Name/Agency)", "(AP
 * Photo/Name)", or an element of its own): the caption stays, its credit goes. The credit in
 * the wire services' form is trimmed from any paragraph: a carousel's caption is often a plain
 * <p> in a slide's box, no figure around it.
 */
export function trimCaptionCredits(root: Element): void {
  for (const caption of Array.from(root.querySelectorAll('figcaption, p'))) {
    // Or its own element after the caption's text ("... after midnight <span>Photo by A. Name</span>").
    const credit = caption.lastElementChild;
    const inFigure = caption.tagName === 'FIGCAPTION' || caption.closest('figure') !== null;
    if (inFigure && credit && CREDIT.test(textOf(credit)) && textOf(caption).length > textOf(credit).length) {
      credit.remove();
      continue;
    }
    let last: Node | null = caption.lastChild;
    while (last && last.nodeType === 1) last = last.lastChild;
    if (!last || last.nodeType !== 3) continue;
    const text = (last.textContent ?? '').trimEnd();
    const open = text.lastIndexOf('(');
    const closing = text.slice(open);
    if (open <= 0 || !text.endsWith(')') || !TRAILING_CREDIT.test(closing) || (!inFigure && !AGENCY_CREDIT.test(closing))) continue;
    const kept = text.slice(0, open).trimEnd();
    if (kept) last.textContent = kept;
  }
}

/**
 * A shop page's table rows about the sale, not the product ("Sold by | Larkspur Ltd", "Returns |
 * Returnable within 30 days"): a buy box laid out as a table, or such rows in the product's
 * details. Tables are otherwise kept whole (a spec table is content).
 */
export function removeSaleRows(root: Element): void {
  for (const row of Array.from(root.querySelectorAll('tr'))) {
    const label = row.querySelector('th, td');
    if (label && SALE_ROW_LABEL.test(textOf(label))) row.remove();
  }
}
