/**
 * Whether a page is a discussion thread (a forum topic, a Q&A page, a Reddit-style post with its
 * replies), where the replies are the content, rather than an article with a comment section,
 * where they are not. Told by the page's schema.org type when it declares one, else by its
 * markup: in a thread the opening post and the replies are rendered by one template, so the
 * block holding the opening post's text has the same tag and classes as the blocks holding the
 * replies' text. An article's body and its comments' bodies are made by different templates
 * ("entry-content" and "comment-content").
 */
import { textOf } from './dom';
import { isSignatureName } from './boilerplate-cues';

/** Characters of its own text that make an element a post body rather than a label. */
const MIN_BODY = 40;
/** Replies in the same template as the opening post that make a thread. */
export const MIN_REPLIES = 2;

/** Text an element holds itself: its text nodes and its paragraphs (phpBB writes posts with <br>s, most with <p>s). */
function ownTextLength(element: Element): number {
  let length = 0;
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) length += (child.textContent ?? '').trim().length;
    else if ((child as Element).tagName === 'P') length += textOf(child).length;
  }
  return length;
}

/**
 * Class names every template uses, so they say nothing of which one made a block: utility CSS
 * (Tailwind's "prose", "mt-4", "text-lg", "md:flex") and generic wrappers ("container", "content").
 */
const UTILITY_CLASS =
  /^([\w-]+:)*(-?(prose|container|content|contents|wrapper|wrap|inner|body|text|clearfix|row|col|flex|grid|block|inline|hidden|relative|absolute|static|sticky|truncate|italic|uppercase|lowercase|capitalize|underline|antialiased|border|rounded|shadow|dark|light|active|first|last|odd|even)|-?(m|p)[trblxyse]?-[\w./[\]-]+|-?(w|h|min-w|max-w|min-h|max-h|size|top|left|right|bottom|inset|z|order|basis|grow|shrink)-[\w./[\]-]+|(prose|text|font|leading|tracking|space|gap|bg|border|rounded|shadow|items|justify|content|self|place|overflow|break|whitespace|col|row|grid|flex|list|decoration|underline|opacity|transition|duration|ease|ring|divide|align|object|aspect|line-clamp)-[\w./[\]-]+|(sm|md|lg|xl|xs)-\d+|(col|span)-\d+)$/;

/**
 * A block's template: its tag and its class names but the utility ones, or null when the block
 * has no other (two blocks styled alike by utility classes may come from any two templates).
 */
function signature(element: Element): string | null {
  const classes = templateClasses(element);
  return classes.length > 0 ? `${element.tagName}.${classes.sort().join('.')}` : null;
}

/** A block's class names but the utility ones, lower-cased. */
function templateClasses(element: Element): string[] {
  return (element.getAttribute('class') ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((name) => name && !UTILITY_CLASS.test(name));
}

/**
 * Whether the comment boxes of `body` (the elements `isCommentBox` names, found by class) hold
 * replies in the opening post's own template: the page is a thread, and they are its content.
 */
export function repliesShareThePostTemplate(body: Element, isCommentBox: (element: Element) => boolean): boolean {
  const boxes = new Set<Element>();
  const blocks: Array<{ element: Element; length: number }> = [];
  for (const element of Array.from(body.querySelectorAll('[class], [id]'))) {
    if (isCommentBox(element)) boxes.add(element);
    if (!element.hasAttribute('class')) continue;
    const length = ownTextLength(element);
    if (length >= MIN_BODY) blocks.push({ element, length });
  }
  if (boxes.size === 0) return false;
  const inBox = (element: Element): boolean => {
    for (let parent = element.parentElement; parent && parent !== body; parent = parent.parentElement) if (boxes.has(parent)) return true;
    return false;
  };
  let post: { element: Element; length: number } | undefined;
  const boxed: Array<{ element: Element; length: number }> = [];
  const replies = new Map<string, number>();
  for (const block of blocks) {
    if (boxes.has(block.element) || inBox(block.element)) {
      boxed.push(block);
      const key = signature(block.element);
      if (key) replies.set(key, (replies.get(key) ?? 0) + 1);
    } else if (!post || block.length > post.length) {
      post = block;
    }
  }
  const count = (element: Element) => replies.get(signature(element) ?? '') ?? 0;
  if (post && count(post.element) >= MIN_REPLIES) return true;
  // Or by the post's template less a modifier, if the post is no article that outweighs them all.
  if (post) {
    const opening = post;
    const copies = boxed.filter((block) => isPlainerCopy(block.element, opening.element));
    const article = opening.length >= ARTICLE && copies.every((reply) => reply.length * OUTWEIGHS < opening.length);
    if (copies.length >= MIN_REPLIES && !article) return true;
  }
  // The whole thread may sit in a box named for the discussion ("js-discussion"), the opening
  // post too: then the first boxed post in the replies' template opens it, if nothing outside
  // the boxes is longer (an article's body is, beside its comments).
  const opening = boxed.find((block) => count(block.element) > MIN_REPLIES);
  return opening !== undefined && opening.length > (post?.length ?? 0);
}

/** All class names of an element, utility ones too, lower-cased. */
function allClasses(element: Element): string[] {
  return (element.getAttribute('class') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Whether `reply` is built by `post`'s template less a modifier: same tag, class names all the
 * post's, fewer of them (kbin: the entry's "content formatted", its comments' "content").
 */
function isPlainerCopy(reply: Element, post: Element): boolean {
  if (reply.tagName !== post.tagName) return false;
  const own = allClasses(reply);
  const theirs = allClasses(post);
  return own.length > 0 && own.length < theirs.length && own.every((name) => theirs.includes(name));
}

/** Share of class names two blocks must have in common to be one template's ("question__body post-body", "answer__body post-body"). */
const ALIKE = 0.5;
/** Elements whose text is no page text (a script's JSON may be the longest "block" of a page). */
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'TEXTAREA']);

/** Tags a post's body is written in (a label's span or a list's item is no post). */
const POST_TAGS = new Set(['DIV', 'SECTION', 'ARTICLE', 'TD', 'BLOCKQUOTE']);
/**
 * Or a span, when the page's longest post is a span holding paragraphs, written as a block
 * (Zhihu's question and answers: `<span class="RichText">`); a page whose every line is a span
 * of one class (eBay's "ux-textspans") is no thread of spans.
 */
const isPostTag = (element: Element) => POST_TAGS.has(element.tagName) || element.tagName === 'SPAN';
const isBlockSpan = (element: Element) => element.tagName === 'SPAN' && element.querySelector(':scope > p') !== null;
/** Own text of a post body short enough to be a label, not a reply ("· Pastry chef"). */
const MIN_POST = 20;

function alike(a: Element, aClasses: readonly string[], b: Element): boolean {
  if (a.tagName !== b.tagName) return false;
  const bClasses = templateClasses(b);
  const shared = bClasses.filter((name) => aClasses.includes(name)).length;
  return shared > 0 && shared / new Set([...aClasses, ...bClasses]).size >= ALIKE;
}

/**
 * The posts of a thread told by its shape alone, when nothing names its replies as comments: the
 * block holding the page's longest post and at least {@link MIN_REPLIES} others are made by one
 * template (most class names in common: Apple's "question__body post-body" and "answer__body
 * post-body", Quora's answers), each in a post box of its own beside its author's name or its
 * controls (an article's paragraphs, in wrappers of their own or not, share one box: the
 * article). Returns the post bodies in page order, or none when the page is no such thread (an
 * article's body and its comments are made by different templates).
 */
export function threadPosts(body: Element): Element[] {
  let longest: { element: Element; length: number } | undefined;
  const blocks: Array<{ element: Element; length: number }> = [];
  for (const element of Array.from(body.querySelectorAll('*'))) {
    if (NOT_TEXT.has(element.tagName)) continue;
    const length = ownTextLength(element);
    if (length < MIN_POST) continue;
    // The longest block may have no class (an article's body): then it is no thread's post.
    if (length >= MIN_BODY && (!longest || length > longest.length)) longest = { element, length };
    if (element.hasAttribute('class') && isPostTag(element)) blocks.push({ element, length });
  }
  if (!longest || (longest.element.tagName === 'SPAN' && !isBlockSpan(longest.element))) return [];
  const classes = templateClasses(longest.element);
  if (classes.length === 0) return [];
  const posts: Element[] = [];
  for (const { element } of blocks) {
    if (element !== longest.element && !alike(longest.element, classes, element)) continue;
    // FluxBB classes its signatures as posts too ("postsignature postmsg").
    if ((element.getAttribute('class') ?? '').split(/\s+/).some(isSignatureName)) continue;
    // A post's body inside another's (a quoted post) is part of that post.
    if (posts.some((post) => post.contains(element))) continue;
    posts.push(element);
  }
  // Each post in a box of its own, beside its author's name or its controls: an article's
  // paragraphs, however wrapped, share one box (the article), and so do a sidebar's teasers.
  const boxes = new Map<Element | null, number>();
  const boxOf = new Map(posts.map((post) => [post, postBox(post)]));
  for (const box of boxOf.values()) boxes.set(box, (boxes.get(box) ?? 0) + 1);
  const boxed = posts.filter((post) => {
    const box = boxOf.get(post) ?? null;
    return box !== null && boxes.get(box) === 1;
  });
  if (boxed.length <= MIN_REPLIES || !boxed.includes(longest.element)) return [];
  // An article with its comments in the article's own post template (Talkyard, a wiki page's
  // talk): the opening post is an article, many times longer than any reply. A thread's opening
  // question is about as long as its answers.
  const [opening, ...replies] = boxed.map(ownTextLength);
  if (opening! >= ARTICLE && replies.every((reply) => reply * OUTWEIGHS < opening!)) return [];
  return boxed;
}

/** Characters of an opening post that is an article rather than a question. */
const ARTICLE = 1000;
/** How many times longer than its longest reply an article is. */
const OUTWEIGHS = 4;

/** Levels above a post's body its box may be (Quora's answer text sits five wrappers deep). */
const MAX_BOX_DEPTH = 8;

/** The nearest element around `post` that holds something besides it (an author card, a vote count), or null. */
function postBox(post: Element): Element | null {
  let node = post;
  for (let depth = 0; depth < MAX_BOX_DEPTH && node.parentElement; depth++) {
    const parent = node.parentElement;
    for (let sibling = parent.firstChild; sibling; sibling = sibling.nextSibling) {
      if (sibling !== node && /\S/.test(sibling.textContent ?? '')) return parent;
    }
    node = parent;
  }
  return null;
}
