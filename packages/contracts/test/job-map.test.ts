import {
  JOB_KINDS,
  JOB_TYPES,
  QUEUES,
  crawlTimeoutSeconds,
  followDeadline,
  jobPayload,
  parseJobTimeoutSeconds,
  screenshotCreateRequest,
  screenshotJobSeconds,
  WATCH_LIMITS,
} from '../src';

const context = { llm: { concurrency: 4, timeoutMs: 30_000, maxRetries: 3 } };

describe('job map', () => {
  it('names every job type, each on its queue', () => {
    expect(Object.keys(JOB_KINDS).sort()).toEqual([...JOB_TYPES].sort());
    expect(JOB_KINDS.screenshot.queue).toBe(QUEUES.screenshot);
    for (const name of ['scrape', 'crawl', 'parse', 'watch'] as const) expect(JOB_KINDS[name].queue).toBe(QUEUES.parse);
  });

  it('builds each envelope with the kind’s own budget, accepted time and owner', () => {
    const request = screenshotCreateRequest.parse({ url: 'https://example.com', delay: 3 });
    expect(jobPayload('screenshot', { request }, { acceptedAt: 5, owner: { owner: 'k', plan: 'pro' } })).toEqual({
      request,
      timeoutSeconds: screenshotJobSeconds(request),
      acceptedAt: 5,
      owner: 'k',
      plan: 'pro',
    });
    const crawl = jobPayload('crawl', { request: { url: 'https://example.com', link_limit: 40 } as never }, { acceptedAt: 1 });
    expect(crawl.timeoutSeconds).toBe(crawlTimeoutSeconds(40));
    expect('owner' in crawl).toBe(false);
    expect(jobPayload('scrape', { request: { timeout: 12 } as never, linkMapPages: 5 }).timeoutSeconds).toBe(12);
    expect(jobPayload('watch', { watchId: 'w', trigger: 'manual' }).timeoutSeconds).toBe(WATCH_LIMITS.checkTimeoutSeconds);
    const parse = jobPayload('parse', { request: { prompt: 'p', max_depth: 1, max_pages: 10 } }, { context });
    expect(parse.timeoutSeconds).toBe(parseJobTimeoutSeconds(context.llm, 10));
    expect(() => jobPayload('parse', { request: { prompt: 'p', max_depth: 1, max_pages: 10 } })).toThrow(/model settings/);
  });

  it('lets a client follow a job for its budget plus the kind’s margin', () => {
    expect(followDeadline('scrape', { acceptedAt: 1_000, timeoutSeconds: 10 })).toBe(1_000 + 12_000);
    expect(followDeadline('screenshot', { acceptedAt: 1_000, timeoutSeconds: 40 })).toBe(1_000 + 70_000);
    expect(followDeadline('parse', { acceptedAt: 0, timeoutSeconds: 504 })).toBe(534_000);
  });
});
