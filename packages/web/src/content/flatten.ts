/**
 * Very deep nesting (thousands of wrapper `<div>`s) makes main-content scoring and the markdown
 * and text walkers slow (their cost grows with depth times size) and overflows their recursion.
 * Real pages stay far below `DOM_DEPTH_CAP`; beyond it, every element that wraps other elements
 * is replaced by its children, so the tree is at most one level deeper than the cap and keeps
 * every text node, link and image. The walk uses its own stack: no recursion here either.
 */
export const DOM_DEPTH_CAP = 64;

/** Unwraps nesting below `cap` levels in place; returns how many elements were unwrapped. */
export function flattenDeepNesting(root: Element, cap = DOM_DEPTH_CAP): number {
  let unwrapped = 0;
  const stack: { node: Element; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const children = Array.from(node.children);
    if (depth > cap && children.length > 0 && node !== root && node.parentNode) {
      const parent = node.parentNode;
      for (const child of Array.from(node.childNodes)) parent.insertBefore(child, node);
      node.remove();
      unwrapped += 1;
      // The children now sit where the wrapper was, at its depth.
      for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ node: children[i]!, depth });
      continue;
    }
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ node: children[i]!, depth: depth + 1 });
  }
  return unwrapped;
}
