import type { BrowserContext, Target } from 'puppeteer-core';

/**
 * Closes every window a page of the context opens (window.open, target=_blank links and forms),
 * as soon as it exists. Chromium's --block-new-web-contents refuses most of them already; this
 * catches the rest, so a page that opens windows in a loop cannot grow the browser without bound.
 * Whatever such a window manages to request first still leaves through the egress proxy.
 */
export function closePopups(context: BrowserContext): void {
  context.on('targetcreated', (target: Target) => {
    if (target.type() !== 'page' || !target.opener()) return;
    void target
      .page()
      .then((page) => page?.close())
      .catch(() => undefined);
  });
}
