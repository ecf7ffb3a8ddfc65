/**
 * Accordion headings: the WAI-ARIA accordion pattern puts each section's title in a button inside
 * its heading (`<h3><button aria-expanded="true">Specifications</button></h3>`). Buttons are
 * controls and go before extraction; this one's text is the section's heading, so the heading
 * keeps it. Only a button that is all of its heading's text is unwrapped.
 */
import { textOf } from './dom';

export function unwrapHeadingButtons(root: ParentNode): void {
  for (const button of Array.from(root.querySelectorAll('h1 > button, h2 > button, h3 > button, h4 > button, h5 > button, h6 > button'))) {
    const heading = button.parentElement;
    const text = textOf(button);
    if (!heading || !text || textOf(heading) !== text) continue;
    // Icons and hidden labels inside the button are removed with the rest of the non-content later.
    while (button.firstChild) heading.insertBefore(button.firstChild, button);
    button.remove();
  }
}
