/**
 * Headings that only repeat the page's title: a forum gives every post a subject line, which for
 * replies is the topic's title after "Re:", and for the opening post the title itself. The title
 * is already the content's h1; its repeats are the thread's chrome, not what anyone wrote.
 */
import { textOf } from './dom';

/** A reply's subject prefix, in the languages mail and forum software write it ("Re:", "AW:", "SV:"). */
const REPLY_PREFIX = /^((re|aw|antw|sv|vs|rif|r)(\[\d+\])?\s*:\s*)+/iu;
/** A label before the title in a forum's own heading ("Thread: ", "Topic: "). */
const TITLE_LABEL = /^[^:]{1,20}:\s+/u;

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Removes from `root` the h2-h6 headings that say `title` again (after a reply prefix), not its h1. */
export function removeTitleRepeats(root: Element, title: string): void {
  const full = normalise(title);
  if (!full) return;
  const bare = normalise(title.replace(TITLE_LABEL, ''));
  for (const heading of Array.from(root.querySelectorAll('h2, h3, h4, h5, h6'))) {
    const said = normalise(textOf(heading).replace(REPLY_PREFIX, ''));
    if (said === full || said === bare) heading.remove();
  }
}
