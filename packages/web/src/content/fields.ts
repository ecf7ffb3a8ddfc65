/**
 * Fields a stylesheet sets apart: two inline elements side by side with nothing between them,
 * each with a class of its own (`<span class="name">小松菜</span><span class="amount">1株</span>`),
 * which a layout shows apart (a flex row, a margin) and the text would run together ("小松菜1株",
 * "Weight2.4 kg"). A space goes between them. Run before Readability, which drops class names.
 */
const INLINE = new Set(['SPAN', 'A', 'B', 'STRONG', 'EM', 'I', 'SMALL', 'LABEL', 'TIME', 'DATA', 'ABBR', 'CITE', 'MARK']);
/** Where class names are a highlighter's or a typesetter's, and spacing is the text's own. */
const VERBATIM = 'pre, code, math, .katex, .MathJax';
/**
 * A field says something: two characters with a letter (a price's "99" after its "12." is one
 * number; a drop cap's "T" begins its word), or one CJK character (a word: "卵").
 */
const FIELD = /^((?=.*\p{L})\S.*\S|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])$/su;

export function separateFields(root: Element): void {
  for (const element of Array.from(root.querySelectorAll('[class]'))) {
    const next = element.nextSibling;
    if (!next || next.nodeType !== 1 || !INLINE.has(element.tagName) || !INLINE.has((next as Element).tagName)) continue;
    const nextClass = (next as Element).getAttribute('class');
    if (!nextClass || nextClass === element.getAttribute('class') || element.closest(VERBATIM)) continue;
    const before = element.textContent ?? '';
    const after = next.textContent ?? '';
    // One word or one sentence in runs of styled text ("un<span>believable</span>", "Hamlet<span>'s</span>").
    if (/^[\p{P}]/u.test(after) || (/\p{L}$/u.test(before) && /^\p{Ll}/u.test(after))) continue;
    if (FIELD.test(before) && FIELD.test(after)) {
      element.after(element.ownerDocument.createTextNode(' '));
    }
  }
}
