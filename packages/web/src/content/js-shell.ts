/**
 * Whether fetched HTML is an empty client-side-rendered shell that needs a browser to show its
 * content: almost no visible text, plus scripts, an empty app mount point, or a noscript notice.
 */
import { parseDocument } from './dom';
import { htmlToText } from './text';

const MOUNT_POINTS = '#root, #app, #__next, #__nuxt, #svelte, #main-app, [data-reactroot], [ng-app], app-root';
const NEEDS_JS = /(enable|requires?|turn on|activate)\s+javascript|javascript (is )?(required|disabled|must be enabled)/i;

const visibleLength = (node: Node) => htmlToText(node).replace(/\s+/g, ' ').length;

/** Accepts the HTML or an already parsed document (which it does not modify). */
export function looksLikeJsShell(page: string | Document): boolean {
  const document = typeof page === 'string' ? parseDocument(page) : page;
  const body = document.body;
  if (!body) return false;
  const scripts = document.querySelectorAll('script').length;
  const noscriptText = Array.from(document.querySelectorAll('noscript'))
    .map((n) => n.textContent ?? '')
    .join(' ');
  const asksForJs = NEEDS_JS.test(noscriptText);
  const visible = visibleLength(body);
  const emptyMount = Array.from(body.querySelectorAll(MOUNT_POINTS)).some((el) => visibleLength(el) < 20);
  if (visible < 200 && (scripts > 0 || emptyMount || asksForJs)) return true;
  // An empty mount point inside a little static chrome (a header, a cookie notice).
  return visible < 1000 && emptyMount && (scripts > 0 || asksForJs);
}
