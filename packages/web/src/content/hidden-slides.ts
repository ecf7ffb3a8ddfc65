/**
 * Carousels and tabbed galleries mark the slides not on screen `aria-hidden="true"` (or
 * `hidden`, or display: none) and show them one at a time; every slide is the page's content all the same. A
 * hidden element is such a slide when a sibling of the same tag and classes is shown: a lone
 * hidden element (a modal, an icon, a skip link's twin) has no such sibling.
 */
import { classSignature as signature, HIDDEN_STYLE, normalise } from './dom';

const isHidden = (element: Element) =>
  element.getAttribute('aria-hidden') === 'true' ||
  element.hasAttribute('hidden') ||
  HIDDEN_STYLE.test(element.getAttribute('style') ?? '');

/** The texts of a parent's shown children by signature, computed once per parent (a carousel may have thousands of slides). */
type ShownKinds = Map<Element, Map<string, string[]>>;

/** Shown texts kept per signature to compare a hidden sibling with (a carousel shows one or a few). */
const SHOWN_TEXTS = 8;
/** Characters of shown text that make a hidden sibling holding it its longer copy. */
const MIN_COPIED = 20;
/** A truncated teaser's tail: "…", "... Read more". */
const TRUNCATION = /\s*(\.{3}|…)?\s*(read more|more|mehr|lire la suite|leer más|leggi di più)?\s*(\.{3}|…|»|›|→)?\s*$/iu;

function shownKinds(parent: Element, cache: ShownKinds): Map<string, string[]> {
  let kinds = cache.get(parent);
  if (!kinds) {
    kinds = new Map<string, string[]>();
    for (const child of Array.from(parent.children)) {
      if (isHidden(child)) continue;
      const key = signature(child);
      const texts = kinds.get(key) ?? [];
      if (texts.length < SHOWN_TEXTS) texts.push(normalise(child.textContent ?? '').replace(TRUNCATION, ''));
      kinds.set(key, texts);
    }
    cache.set(parent, kinds);
  }
  return kinds;
}

/**
 * Whether hidden `element` is an off-screen slide beside a shown one. A hidden sibling that holds
 * a shown one's text is no slide but its full copy ("Read more" expands a teaser): it stays hidden.
 */
export function isHiddenSlide(element: Element, cache: ShownKinds = new Map()): boolean {
  if (!isHidden(element) || !element.getAttribute('class') || element.children.length === 0 || !element.parentElement) return false;
  const shown = shownKinds(element.parentElement, cache).get(signature(element));
  if (!shown) return false;
  const text = normalise(element.textContent ?? '');
  return !shown.some((copied) => copied.length >= MIN_COPIED && text.includes(copied));
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
