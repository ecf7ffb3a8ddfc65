/**
 * Documents as pages: a PDF (Mozilla's pdf.js: text in reading order, page by page, headings told
 * by their size) or a DOCX (mammoth: headings, lists and tables kept) becomes HTML, which the
 * content extractor then turns into markdown, text or HTML like any page. CPU-bound and async, so
 * it runs in the content worker threads, under the same deadline as a page.
 */

export const DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
} as const;

export type DocumentType = 'pdf' | 'docx';

/** Servers often label documents as generic binaries: then the file name decides. */
const GENERIC_BINARY = new Set(['application/octet-stream', 'binary/octet-stream', 'application/download', 'application/force-download']);

/** The document type of a response, or undefined when it is not one Sitelens reads. */
export function documentTypeOf(contentType: string, url: string): DocumentType | undefined {
  const known = DOCUMENT_TYPES[contentType as keyof typeof DOCUMENT_TYPES];
  if (known) return known;
  if (!GENERIC_BINARY.has(contentType) && contentType !== '') return undefined;
  let pathname = '';
  try {
    pathname = new URL(url).pathname.toLowerCase();
  } catch {
    return undefined;
  }
  if (pathname.endsWith('.pdf')) return 'pdf';
  if (pathname.endsWith('.docx')) return 'docx';
  return undefined;
}

export interface DocumentHtml {
  html: string;
  title?: string;
  author?: string;
  pageCount?: number;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface TextItem {
  str: string;
  transform: number[];
  height: number;
  hasEOL?: boolean;
}

interface Line {
  text: string;
  y: number;
  size: number;
}

/** pdf.js's text items as lines, in the order the page draws them (its reading order). */
function linesOf(items: TextItem[]): Line[] {
  const lines: Line[] = [];
  let text = '';
  let y = Number.NaN;
  let size = 0;
  const flush = () => {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean) lines.push({ text: clean, y, size });
    text = '';
    size = 0;
  };
  for (const item of items) {
    const itemY = item.transform[5] ?? 0;
    const itemSize = Math.abs(item.height) || Math.abs(item.transform[3] ?? 0);
    // A jump in the baseline by more than half a line starts a new line.
    if (text && Math.abs(itemY - y) > Math.max(size, itemSize) * 0.5) flush();
    if (!text) y = itemY;
    text += item.str;
    size = Math.max(size, itemSize);
    if (item.hasEOL) flush();
  }
  flush();
  return lines;
}

function median(values: number[]): number {
  const sorted = values.filter((value) => value > 0).sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}

/** One page's lines as HTML: larger short lines are headings, gaps between lines start paragraphs. */
function pageHtml(lines: Line[], bodySize: number): string {
  const parts: string[] = [];
  let paragraph: string[] = [];
  let previous: Line | undefined;
  const endParagraph = () => {
    if (paragraph.length > 0) parts.push(`<p>${escapeHtml(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  for (const line of lines) {
    const heading = bodySize > 0 && line.size >= bodySize * 1.25 && line.text.length <= 150;
    if (heading) {
      endParagraph();
      parts.push(`<${line.size >= bodySize * 1.8 ? 'h1' : 'h2'}>${escapeHtml(line.text)}</${line.size >= bodySize * 1.8 ? 'h1' : 'h2'}>`);
      previous = undefined;
      continue;
    }
    const gap = previous ? Math.abs(previous.y - line.y) : 0;
    if (previous && gap > Math.max(previous.size, line.size) * 1.6) endParagraph();
    // A word broken at the line end ("infor-" / "mation") is joined again.
    const last = paragraph.at(-1);
    if (last?.endsWith('-') && /^[a-z]/.test(line.text)) paragraph[paragraph.length - 1] = last.slice(0, -1) + line.text;
    else paragraph.push(line.text);
    previous = line;
  }
  endParagraph();
  return parts.join('\n');
}

/** pdf.js ships as an ES module; the compiled CommonJS keeps this import() as it is (module nodenext). */
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

async function pdfToHtml(bytes: Uint8Array): Promise<DocumentHtml> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  // No script in a PDF ever runs (isEvalSupported: false), fonts are not loaded, nothing is fetched.
  const document = await getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    disableStream: true,
    verbosity: 0,
  }).promise;
  try {
    const info = ((await document.getMetadata().catch(() => undefined))?.info ?? {}) as { Title?: unknown; Author?: unknown };
    const pages: Line[][] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(linesOf(content.items.filter((item) => 'str' in item) as TextItem[]));
      page.cleanup();
    }
    const bodySize = median(pages.flat().map((line) => line.size));
    const html = pages.map((lines) => `<section>${pageHtml(lines, bodySize)}</section>`).join('\n<hr>\n');
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    const author = typeof info.Author === 'string' && info.Author.trim() ? info.Author.trim() : undefined;
    return {
      html: `<html><head>${title ? `<title>${escapeHtml(title)}</title>` : ''}</head><body>${html}</body></html>`,
      ...(title ? { title } : {}),
      ...(author ? { author } : {}),
      pageCount: document.numPages,
    };
  } finally {
    await document.destroy();
  }
}

async function docxToHtml(bytes: Uint8Array): Promise<DocumentHtml> {
  const mammoth = await import('mammoth');
  // Images are left out (they would be inlined as data URLs); headings, lists, tables and links stay.
  const result = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
  );
  // Word tables have no header cells: the first row is taken as the header, as it nearly always is.
  const html = result.value.replace(
    /<table>\s*<tr>([\s\S]*?)<\/tr>/g,
    (_match, row: string) => `<table><thead><tr>${row.replace(/<td(?=[\s>])/g, '<th').replace(/<\/td>/g, '</th>')}</tr></thead>`,
  );
  return { html: `<html><head></head><body>${html}</body></html>` };
}

/** A document as HTML (with what it says about itself). Throws UNPROCESSABLE-worthy errors on broken files. */
export function documentToHtml(bytes: Uint8Array, type: DocumentType): Promise<DocumentHtml> {
  return type === 'pdf' ? pdfToHtml(bytes) : docxToHtml(bytes);
}
