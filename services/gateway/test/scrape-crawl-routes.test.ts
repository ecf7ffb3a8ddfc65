/**
 * The scrape and crawl routes on their own (no worker running): what they enqueue, how the
 * lookup shows a crawl in progress, and the scrape answer when no worker picks the job up.
 */
import { CRAWL_LIMITS, crawlTimeoutSeconds, type CrawlJobPayload, type CrawlProgress } from '@sitelens/contracts';
import { getJson, postJson, startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';

describe('scrape and crawl routes without a worker', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('enqueues a crawl job with the defaults filled in and shows its progress in the lookup', async () => {
    const before = Date.now();
    const created = await postJson(`${gw.origin}/v1/crawl`, { url: 'https://example.com/docs', type: 'crawl', fresh: true });
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;
    const job = await gw.deps.queues.parse.getJob(jobId);
    expect(job?.name).toBe('crawl');
    const payload = job!.data as CrawlJobPayload;
    expect(payload.request).toEqual({
      url: 'https://example.com/docs',
      format: 'markdown',
      depth: 1,
      link_limit: CRAWL_LIMITS.linkLimit.default,
      patterns: [],
      exclude_patterns: [],
      include_subdomains: false,
      include_html: false,
      block_cookies: false,
      only_main_content: true,
    });
    expect(payload.timeoutSeconds).toBe(crawlTimeoutSeconds(10));
    expect(payload.acceptedAt).toBeGreaterThanOrEqual(before);

    const waiting = await getJson(`${gw.origin}/v1/crawl/${jobId}`);
    expect(waiting.status).toBe(200);
    expect(waiting.json).toEqual({
      success: true,
      job_id: jobId,
      type: 'crawl',
      status: 'processing',
      data: { url: 'https://example.com/docs', statistics: { total_pages: 0, successful_pages: 0, failed_pages: 0 } },
    });

    const progress: CrawlProgress = { statistics: { total_pages: 4, successful_pages: 2, failed_pages: 1 } };
    await job!.updateProgress(progress);
    const running = await getJson(`${gw.origin}/api/v1/crawl/${jobId}`);
    expect(running.json.data).toEqual({ url: 'https://example.com/docs', ...progress });
  });

  it.each([
    ['51 patterns', Array.from({ length: 51 }, (_, i) => `/p${i}/*`), "Invalid field 'patterns': must hold at most 50 patterns"],
    ['a pattern of 257 characters', ['/ok', `/${'a*'.repeat(128)}`], "Invalid field 'patterns.1': must be at most 256 characters"],
    ['a pattern that is not a string', [{ glob: '/x' }], "Invalid field 'patterns.0': must be path glob strings"],
  ])('refuses %s with a 400 naming the field, before anything is queued', async (_name, patterns, error) => {
    const before = await gw.deps.queues.parse.count();
    const response = await postJson(`${gw.origin}/v1/crawl`, { url: 'https://example.com/', patterns });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST', error });
    expect(await gw.deps.queues.parse.count()).toBe(before);
  });

  it('answers 408 when no worker answers within the timeout, and withdraws the job', async () => {
    const started = Date.now();
    const response = await getJson(`${gw.origin}/v1/scrape?url=${encodeURIComponent('https://example.com/')}&timeout=1`);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(408);
    expect(response.json).toEqual({
      success: false,
      code: 'TIMEOUT',
      error: 'Scraping https://example.com/ took longer than the 1 s timeout',
    });
    // No worker runs, so only the 1 s timeout ends the wait (a lower bound: load makes it later, never earlier).
    expect(elapsed).toBeGreaterThanOrEqual(1_000);
    const left = await gw.deps.queues.parse.getJobs(['waiting', 'prioritized']);
    expect(left.filter((job) => job.name === 'scrape')).toEqual([]);
  });

  it('documents both routes in the API document', async () => {
    const document = (await getJson(`${gw.origin}/openapi.json`)).json as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/v1/scrape'] ?? {})).toContain('get');
    expect(Object.keys(document.paths['/v1/crawl'] ?? {})).toContain('post');
  });

  it('cancels a crawl still waiting: the lookup says cancelled at once; unknown ids and other jobs are 404', async () => {
    const created = await postJson(`${gw.origin}/v1/crawl`, { url: 'https://example.com/docs' });
    const jobId = created.json.job_id as string;
    const cancel = (id: string) => fetch(`${gw.origin}/v1/crawl/${id}`, { method: 'DELETE' });
    const response = await cancel(jobId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, job_id: jobId, status: 'cancelled', message: 'The crawl was cancelled' });
    const lookup = await getJson(`${gw.origin}/v1/crawl/${jobId}`);
    expect(lookup.json).toMatchObject({ success: true, status: 'cancelled', data: { url: 'https://example.com/docs' } });

    expect((await cancel('no-such-job')).status).toBe(404);
    const shot = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/' });
    const other = await cancel(shot.json.job_id as string);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
