/** PDF and DOCX as pages, read on the content threads (pdf.js and mammoth). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENTS_ROOT, contentWorkersForTests } from '@sitelens/testkit';
import { createContentWorkerPool, type ContentWorkerPool } from '../src';
import { documentTypeOf } from '../src/content/documents';

const file = (name: string) => new Uint8Array(readFileSync(path.join(DOCUMENTS_ROOT, name)));

describe('documents', () => {
  let pool: ContentWorkerPool;
  beforeAll(() => {
    pool = createContentWorkerPool(contentWorkersForTests(1));
  });
  afterAll(() => pool.close());

  it('reads a PDF page by page in reading order: headings by size, paragraphs joined, metadata from the file', async () => {
    const content = await pool.extractDocument(file('report.pdf'), 'pdf', 'https://docs.example/report.pdf', {
      markdown: true,
      text: true,
    });
    expect(content.metadata).toEqual({ title: 'Quarterly Report 2026', author: 'Ana Lima', page_count: 2 });
    expect(content.title).toBe('Quarterly Report 2026');
    expect(content.markdown).toBe(
      [
        '# Quarterly Report',
        'Revenue grew in every region this quarter, led by the northern stores and the new online shop, which opened in March and already counts eleven thousand customers.',
        'Costs stayed flat: energy prices fell while wages rose by the agreed three percent.',
        '* * *',
        '## Outlook',
        'The board expects the second half to be slower, with two store openings planned for September and a price review of the whole range in October.',
      ].join('\n\n'),
    );
    expect(content.text).toContain('Outlook');
  });

  it('reads a DOCX as markdown with its headings, table (first row as header) and list', async () => {
    const content = await pool.extractDocument(file('notes.docx'), 'docx', 'https://docs.example/notes.docx', { markdown: true });
    expect(content.title).toBe('Meeting Notes');
    expect(content.markdown).toBe(
      [
        '# Meeting Notes',
        'The team met on Monday to plan the spring release and agreed on the order of work.',
        '## Decisions',
        '| Item | Owner |\n| --- | --- |\n| Search page | Ana |\n| Billing export | Ben |',
        '- Ship the search page first.\n- Review billing in two weeks.',
      ].join('\n\n'),
    );
  });

  it('answers a broken document UNPROCESSABLE naming it, and the thread goes on working', async () => {
    const broken = await pool
      .extractDocument(new TextEncoder().encode('%PDF-1.4 not really'), 'pdf', 'https://docs.example/broken.pdf', { markdown: true })
      .catch((error: unknown) => error);
    expect(broken).toMatchObject({ code: 'UNPROCESSABLE', message: expect.stringContaining('https://docs.example/broken.pdf') });
    const after = await pool.extractDocument(file('notes.docx'), 'docx', 'https://docs.example/notes.docx', { text: true });
    expect(after.text).toContain('Meeting Notes');
  });

  it('knows documents by type, and generic binaries by their file name', () => {
    expect(documentTypeOf('application/pdf', 'https://x.example/a')).toBe('pdf');
    expect(documentTypeOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'https://x.example/a')).toBe('docx');
    expect(documentTypeOf('application/octet-stream', 'https://x.example/files/Report.PDF')).toBe('pdf');
    expect(documentTypeOf('application/octet-stream', 'https://x.example/files/a.zip')).toBeUndefined();
    expect(documentTypeOf('image/png', 'https://x.example/a.pdf')).toBeUndefined();
  });
});
