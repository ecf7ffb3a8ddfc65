/**
 * A checklist's item texts, written as the labels of its checkboxes (a recipe's ingredients to
 * tick off, a packing list): labels are otherwise stripped with the controls they caption ("I
 * agree", "Compare", a protection plan's radio). Three or more checkbox labels outside any form
 * are a list's items, and keep their text, when each box has its one label.
 */

/** Checkbox labels outside a form that make a checklist. */
const MIN_ITEMS = 3;

/** Labels this short, or all saying one thing, are a control's caption ("Compare" on every product tile), not a list's items. */
const MIN_ITEM_TEXT = 4;

/** The checkbox a label captions (inside it, or named by its `for` in `byId`), if any. */
function checkboxOf(label: Element, byId: Map<string, Element>): Element | null {
  const inside = label.querySelector('input[type="checkbox" i]');
  if (inside) return inside;
  const target = label.getAttribute('for');
  return target ? (byId.get(target) ?? null) : null;
}

/** Turns a checklist's labels into spans (in place), so the text outlives the controls. */
export function keepChecklistLabels(body: HTMLElement): void {
  const document = body.ownerDocument;
  // One map of the page's checkboxes by id (linkedom's getElementById walks the page each time).
  const byId = new Map(
    Array.from(body.querySelectorAll('input[type="checkbox" i][id]')).map((input) => [input.getAttribute('id')!, input]),
  );
  const boxes = new Set<Element>();
  const texts = new Set<string>();
  const labels = Array.from(body.querySelectorAll('label')).filter((label) => {
    const text = (label.textContent ?? '').trim();
    if (label.closest('form') || text === '') return false;
    const box = checkboxOf(label, byId);
    if (box) {
      boxes.add(box);
      texts.add(text);
    }
    return box !== null;
  });
  // One label per box: a page's sidebar toggles are a few boxes with several labels each.
  if (boxes.size < MIN_ITEMS || labels.length > boxes.size) return;
  if (texts.size < MIN_ITEMS || [...texts].every((text) => text.length < MIN_ITEM_TEXT)) return;
  for (const label of labels) {
    const span = document.createElement('span');
    while (label.firstChild) span.appendChild(label.firstChild);
    label.replaceWith(span);
  }
}
