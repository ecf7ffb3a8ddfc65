/**
 * Carousels and tabbed galleries mark the slides not on screen `aria-hidden="true"` (or
 * `hidden`, or display: none) and show them one at a time; every slide is the page's content all the same. A
 * hidden element is such a slide when a sibling of the same tag and classes is shown: a lone
 * hidden element (a modal, an icon, a skip link's twin) has no such sibling.
 */

function signature(element: Element): string {
  return `${element.tagName} ${(element.getAttribute('class') ?? '').split(/\s+/).filter(Boolean).sort().join(' ')}`;
}

const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i;

const isHidden = (element: Element) =>
  element.getAttribute('aria-hidden') === 'true' ||
  element.hasAttribute('hidden') ||
  HIDDEN_STYLE.test(element.getAttribute('style') ?? '');

/** The signatures of a parent's shown children, computed once per parent (a carousel may have thousands of slides). */
type ShownKinds = Map<Element, Set<string>>;

function shownKinds(parent: Element, cache: ShownKinds): Set<string> {
  let kinds = cache.get(parent);
  if (!kinds) {
    kinds = new Set<string>();
    for (const child of Array.from(parent.children)) if (!isHidden(child)) kinds.add(signature(child));
    cache.set(parent, kinds);
  }
  return kinds;
}

/** Whether hidden `element` is an off-screen slide beside a shown one. */
export function isHiddenSlide(element: Element, cache: ShownKinds = new Map()): boolean {
  if (!isHidden(element) || !element.getAttribute('class') || element.children.length === 0 || !element.parentElement) return false;
  return shownKinds(element.parentElement, cache).has(signature(element));
}

/** Shows the hidden slides of `root`'s carousels (so later rules, and Readability, treat them as visible). */
export function revealHiddenSlides(root: Element): void {
  const cache: ShownKinds = new Map();
  const slides = Array.from(root.querySelectorAll('[aria-hidden="true"][class], [hidden][class], [style][class]')).filter((element) =>
    isHiddenSlide(element, cache),
  );
  for (const element of slides) {
    element.removeAttribute('aria-hidden');
    element.removeAttribute('hidden');
    element.removeAttribute('style');
  }
}
