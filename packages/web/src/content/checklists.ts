/**
 * A checklist's item texts, written as the labels of its checkboxes (a recipe's ingredients to
 * tick off, a packing list): labels are otherwise stripped with the controls they caption ("I
 * agree", "Compare", a protection plan's radio). Three or more checkbox labels outside any form
 * are a list's items, and keep their text, when each box has its one label.
 */

/** Checkbox labels outside a form that make a checklist. */
const MIN_ITEMS = 3;

/** The checkbox a label captions (inside it, or named by its `for`), if any. */
function checkboxOf(label: Element, document: Document): Element | null {
  const inside = label.querySelector('input[type="checkbox" i]');
  if (inside) return inside;
  const target = label.getAttribute('for');
  const input = target ? document.getElementById(target) : null;
  return input?.tagName === 'INPUT' && (input.getAttribute('type') ?? '').toLowerCase() === 'checkbox' ? input : null;
}

/** Turns a checklist's labels into spans (in place), so the text outlives the controls. */
export function keepChecklistLabels(body: HTMLElement): void {
  const document = body.ownerDocument;
  const boxes = new Set<Element>();
  const labels = Array.from(body.querySelectorAll('label')).filter((label) => {
    if (label.closest('form') || (label.textContent ?? '').trim() === '') return false;
    const box = checkboxOf(label, document);
    if (box) boxes.add(box);
    return box !== null;
  });
  // One label per box: a page's sidebar toggles are a few boxes with several labels each.
  if (boxes.size < MIN_ITEMS || labels.length > boxes.size) return;
  for (const label of labels) {
    const span = document.createElement('span');
    while (label.firstChild) span.appendChild(label.firstChild);
    label.replaceWith(span);
  }
}
