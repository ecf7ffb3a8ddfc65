/**
 * Small boxes built around a form: newsletter sign-ups, buy boxes, comment and search forms.
 * Found by their controls (an email field, a select, a text area) before the controls are
 * stripped, whatever the box's class names; the box is the largest wrapper of the form that
 * still holds little text, and less than half the page's. A form around the whole page (ASP.NET
 * pages wrap everything in one) is never a box.
 */
import { textOf } from './dom';

const CONTROLS = 'form, input:not([type="hidden"]), select, textarea';
/** More text than this is more than a pitch and a privacy line: content may be in it. */
const MAX_BOX_TEXT = 300;
const NEVER_IN_BOX = 'pre, table, h1, article, main';

function isBox(element: Element, pageText: number): boolean {
  const text = textOf(element).length;
  return text < MAX_BOX_TEXT && text < pageText / 2 && element.querySelector(NEVER_IN_BOX) === null;
}

/** Removes form boxes from `body`, never an element `isProtected` (the article's own containers). */
export function removeFormBoxes(body: Element, isProtected: (element: Element) => boolean): void {
  const pageText = textOf(body).length;
  for (const control of Array.from(body.querySelectorAll(CONTROLS))) {
    if (!control.isConnected || control.closest('pre, code')) continue;
    let box: Element | null = null;
    for (let candidate: Element | null = control; candidate && candidate !== body; candidate = candidate.parentElement) {
      if (isProtected(candidate) || !isBox(candidate, pageText)) break;
      box = candidate;
    }
    box?.remove();
  }
}
