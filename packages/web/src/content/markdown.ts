/** HTML to markdown: turndown with GitHub-flavoured tables, strikethrough and task lists. */
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';

export type MarkdownConverter = (root: Element | string) => string;

export function createMarkdownConverter(): MarkdownConverter {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  service.use(gfm);
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'button', 'select', 'textarea', 'input']);
  // Inline images (data: URIs) would bury the text under kilobytes of base64.
  service.addRule('dropInlineImages', {
    filter: (node) => node.nodeName === 'IMG' && !/^https?:/i.test(node.getAttribute('src') ?? ''),
    replacement: () => '',
  });
  // "- item" rather than turndown's "-   item"; nested content is indented to match.
  service.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as Element | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1') || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const paragraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '') + (paragraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  // Highlighters put empty spans before the code (Pygments: <pre><span></span><code>), which
  // turndown's fenced rule, wanting code first, would turn into inline code.
  service.addRule('preWithLeadingMarkup', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE' && node.querySelector('code') !== null,
    replacement: (_content, node) => {
      const code = (node as Element).textContent?.replace(/\n$/, '') ?? '';
      const language = /language-(\S+)/.exec((node as Element).querySelector('code')?.getAttribute('class') ?? '')?.[1] ?? '';
      // A fence longer than any run of backticks in the code itself.
      const fence = '`'.repeat((code.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length + 1), 3));
      return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
    },
  });
  // A link with nothing to show (an icon whose svg is gone) is only noise: "[](url)".
  service.addRule('emptyLinks', {
    filter: (node) => node.nodeName === 'A' && !(node.textContent ?? '').trim() && node.querySelector('img') === null,
    replacement: () => '',
  });
  // Script links and empty anchors carry no destination a reader can use.
  service.addRule('plainScriptLinks', {
    filter: (node) => node.nodeName === 'A' && !/^(https?:|mailto:|tel:|#)/i.test(node.getAttribute('href') ?? ''),
    replacement: (content) => content,
  });
  return (root) =>
    service
      .turndown(root as unknown as TurndownService.Node)
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
}
