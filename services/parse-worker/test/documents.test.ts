/**
 * Documents through GET /v1/scrape and POST /v1/crawl (real gateway, a parse worker in this
 * process, the local fixture site): PDF and DOCX read as pages, a generic binary named .pdf, a
 * document over DOCUMENT_MAX_BYTES (413) and a type Sitelens does not read (415).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENTS_ROOT, startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';

const PDF = readFileSync(path.join(DOCUMENTS_ROOT, 'report.pdf'));
const DOCX = readFileSync(path.join(DOCUMENTS_ROOT, 'notes.docx'));
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const MAX_BYTES = 16_384;

describe('documents in scrape and crawl', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  const scrape = (target: string, extra = '') =>
    getJson(`${stack.origin}/v1/scrape?url=${encodeURIComponent(`${site.origin}${target}`)}${extra}`);

  beforeAll(async () => {
    site = await startFixtureSite();
    const serve = (type: string, body: Buffer) => (_req: unknown, res: import('node:http').ServerResponse) =>
      void res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
    site.route('/report.pdf', serve('application/pdf', PDF));
    site.route('/notes.docx', serve(DOCX_TYPE, DOCX));
    site.route('/files/Report.PDF', serve('application/octet-stream', PDF));
    site.route('/big.pdf', serve('application/pdf', Buffer.concat([PDF, Buffer.alloc(MAX_BYTES)])));
    site.route('/archive.zip', serve('application/zip', Buffer.from('PK\u0003\u0004')));
    site.route(
      '/library',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            '<html><body><main><h1>Library</h1><p>Our documents.</p><a href="/report.pdf">Report</a> <a href="/notes.docx">Notes</a></main></body></html>',
          ),
    );
    stack = await startServiceStack({ DOCUMENT_MAX_BYTES: String(MAX_BYTES) });
  });

  afterAll(async () => {
    await stack?.close();
    await site?.close();
  });

  it('scrapes a PDF as markdown, with its title, author and page count', async () => {
    const response = await scrape('/report.pdf');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      success: true,
      title: 'Quarterly Report 2026',
      metadata: { status_code: 200, title: 'Quarterly Report 2026', author: 'Ana Lima', page_count: 2 },
    });
    expect(response.json.content).toMatch(/^# Quarterly Report\n\nRevenue grew in every region/);
    expect(response.json.content).toContain('## Outlook');
  });

  it('reads the document itself when asked to render it (not the browser viewer)', async () => {
    const rendered = await scrape('/report.pdf', '&render_js=true&format=text&fresh=true');
    expect(rendered.status).toBe(200);
    expect(rendered.json).toMatchObject({ title: 'Quarterly Report 2026', metadata: { page_count: 2 } });
    expect(rendered.json.content).toContain('Revenue grew in every region');
  });

  it('scrapes a DOCX as markdown, and a PDF served as a generic binary by its name', async () => {
    const docx = await scrape('/notes.docx', '&format=markdown');
    expect(docx.status).toBe(200);
    expect(docx.json.content).toContain('| Item | Owner |\n| --- | --- |\n| Search page | Ana |');
    const generic = await scrape('/files/Report.PDF', '&format=text');
    expect(generic.status).toBe(200);
    expect(generic.json.content).toContain('Revenue grew in every region');
  });

  it('answers 413 for a document over DOCUMENT_MAX_BYTES and 415 for a type it does not read', async () => {
    const big = await scrape('/big.pdf');
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(big.json.error).toContain('DOCUMENT_MAX_BYTES');
    const zip = await scrape('/archive.zip');
    expect(zip.status).toBe(415);
    expect(zip.json).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(zip.json.error).toContain('application/zip');
  });

  it('crawls into linked documents', async () => {
    const created = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/library`, depth: 1, link_limit: 5 });
    expect(created.status).toBe(202);
    const seen = await pollUntil(
      () => getJson(`${stack.origin}/v1/crawl/${created.json.job_id}`),
      (r) => r.json.status === 'completed' || r.json.status === 'failed',
    );
    const data = seen.at(-1)!.json.data as { crawl_data: Record<string, { markdown: string; metadata: { title: string } }> };
    expect(data.crawl_data[`${site.origin}/report.pdf`]).toMatchObject({ metadata: { title: 'Quarterly Report 2026' } });
    expect(data.crawl_data[`${site.origin}/report.pdf`]!.markdown).toContain('## Outlook');
    expect(data.crawl_data[`${site.origin}/notes.docx`]!.markdown).toContain('# Meeting Notes');
  });
});
