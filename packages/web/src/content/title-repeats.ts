/**
 * Headings that only repeat the page's title: a forum gives every post a subject line, which for
 * replies is the topic's title after "Re:", and for the opening post the title itself. The title
 * is already the content's h1; its repeats are the thread's chrome, not what anyone wrote.
 */
import { normalise, textOf } from './dom';

/** A reply's subject prefix, in the languages mail and forum software write it ("Re:", "AW:", "SV:"). */
const REPLY_PREFIX = /^((re|aw|antw|sv|vs|rif|r)(\[\d+\])?\s*:\s*)+/iu;
/**
 * A forum's label or reply prefix before the title in its own title ("Thread: ", "Topic: ",
 * "Re: "). Only these: "Lesson 3: Loops" is a title whose "Loops" heading is the lesson's.
 */
const TITLE_LABEL = /^((re|aw|sv|fwd?|thread|topic|thema|sujet|tema|discussione)\s*:\s*)+/iu;

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
