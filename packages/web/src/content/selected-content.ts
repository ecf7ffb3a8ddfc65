/**
 * The element a CSS selector names, for a watch's `selector`: taken from the whole page (not the
 * main content), links and images made absolute like the main content's.
 */
import { baseUrlOf } from './dom';
import { absolutize } from './main-content';

export function selectElement(document: Document, pageUrl: string, selector: string): Element | null {
  const element = document.querySelector(selector);
  if (!element) return null;
  absolutize(element, baseUrlOf(document, pageUrl));
  return element;
}
