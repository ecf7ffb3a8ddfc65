/**
 * Scrape and crawl in hosted mode: keys required, plan caps on link_limit, and private addresses
 * refused (at the gateway for literal addresses, and by the worker whatever reaches it).
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { PLANS, QUEUES, SCRAPE_LIMITS, type CrawlJobPayload, type ScrapeJobPayload } from '@sitelens/contracts';
import { startFixtureSite, type FixtureSite, testRedisUrl, startBlogSite, startEgressAttack, type EgressAttack } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';

const KEYS = { free: 'hosted-free-key-0001', pro: 'hosted-pro-key-0001' };
const API_KEYS = `${KEYS.free}:free,${KEYS.pro}:pro`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('hosted mode without private addresses', () => {
  let stack: ServiceStack;
  let site: FixtureSite;
  let queue: Queue;

  beforeAll(async () => {
    stack = await startServiceStack({ MODE: 'hosted', ALLOW_PRIVATE_URLS: 'false', API_KEYS });
    site = await startFixtureSite();
    site.route('/', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Internal</h1>'));
    queue = new Queue(QUEUES.parse, { connection: { url: testRedisUrl() }, prefix: stack.gateway.config.redis.prefix });
  });
  afterAll(async () => {
    await queue?.close();
    await stack?.close();
    await site?.close();
  });

  it('needs a key', async () => {
    const response = await getJson(`${stack.origin}/v1/scrape?url=https%3A%2F%2Fexample.com%2F`);
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it.each([
    ['a loopback literal', (origin: string) => `${origin}/`],
    ['localhost', (origin: string) => origin.replace('127.0.0.1', 'localhost')],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a decimal IPv4 spelling', () => 'http://2130706433/'],
  ])('refuses to scrape %s with 403 URL_BLOCKED', async (_name, target) => {
    const response = await getJson(`${stack.origin}/v1/scrape?url=${encodeURIComponent(target(site.origin))}`, bearer(KEYS.pro));
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    expect(site.hits).toEqual([]);
  });

  it('refuses a crawl of a private address, and a private webhook receiver', async () => {
    const crawl = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/` }, bearer(KEYS.pro));
    expect(crawl.status).toBe(403);
    expect(crawl.json).toMatchObject({ code: 'URL_BLOCKED' });
    const hook = await postJson(
      `${stack.origin}/v1/crawl`,
      { url: 'https://example.com/', webhook_url: 'http://10.0.0.8/hook' },
      bearer(KEYS.pro),
    );
    expect(hook.status).toBe(403);
    expect(hook.json).toMatchObject({ code: 'URL_BLOCKED' });
    expect(site.hits).toEqual([]);
  });

  it('has the worker refuse private addresses whatever reaches it', async () => {
    const scrapePayload: ScrapeJobPayload = {
      request: {
        url: `${site.origin}/`,
        format: 'markdown',
        include_html: false,
        fresh: true,
        depth: 1,
        timeout: 10,
        block_cookies: false,
        only_main_content: true,
      },
      linkMapPages: SCRAPE_LIMITS.linkMapPages,
      timeoutSeconds: 10,
      acceptedAt: Date.now(),
    };
    const scrapeJob = await queue.add('scrape', scrapePayload, { attempts: 1 });
    const crawlPayload: CrawlJobPayload = {
      request: {
        url: `${site.origin}/`,
        format: 'markdown',
        depth: 1,
        link_limit: 5,
        patterns: [],
        exclude_patterns: [],
        include_subdomains: false,
        block_cookies: false,
        only_main_content: true,
        include_html: false,
      },
      timeoutSeconds: 60,
      acceptedAt: Date.now(),
    };
    const crawlId = randomUUID();
    await queue.add('crawl', crawlPayload, { jobId: crawlId, attempts: 1 });

    const [failed] = (await pollUntil(() => queue.getJob(scrapeJob.id!).then((job) => job?.failedReason), Boolean)).slice(-1);
    expect(failed).toBe('URL_BLOCKED: The URL resolves to an address this service may not reach');
    const [view] = (
      await pollUntil(
        () => getJson(`${stack.origin}/v1/crawl/${crawlId}`, bearer(KEYS.pro)).then((r) => r.json),
        (v) => v.status !== 'processing',
      )
    ).slice(-1);
    expect(view).toMatchObject({ success: false, job_id: crawlId, type: 'crawl', status: 'failed', code: 'URL_BLOCKED' });
    expect(site.hits).toEqual([]);
  });
});

describe('hosted mode plan caps (private addresses allowed for the fixture site)', () => {
  let stack: ServiceStack;
  let blog: FixtureSite;

  beforeAll(async () => {
    // Polling the lookup would spend the free plan's 10 requests a minute; the page caps stay.
    const roomy = { requestsPerMinute: 10_000, requestsPerDay: 100_000 };
    const plans = { free: { ...PLANS.free, ...roomy }, pro: { ...PLANS.pro, ...roomy }, enterprise: PLANS.enterprise };
    stack = await startServiceStack({ MODE: 'hosted', ALLOW_PRIVATE_URLS: 'true', API_KEYS }, { plans });
    blog = await startBlogSite();
  });
  afterAll(async () => {
    await stack?.close();
    await blog?.close();
  });

  it.each([
    ['free', 6, 5],
    ['pro', 51, 50],
  ] as const)('refuses a %s-plan link_limit of %i with 403 PLAN_LIMIT', async (plan, asked, cap) => {
    const response = await postJson(`${stack.origin}/v1/crawl`, { url: `${blog.origin}/`, link_limit: asked }, bearer(KEYS[plan]));
    expect(response.status).toBe(403);
    expect(response.json).toEqual({
      success: false,
      code: 'PLAN_LIMIT',
      error: `link_limit ${asked} exceeds the ${plan} plan's limit of ${cap} pages per request`,
    });
  });

  it('lowers the default link_limit to the plan cap and crawls with the key', async () => {
    const created = await postJson(`${stack.origin}/v1/crawl`, { url: `${blog.origin}/`, depth: 2 }, bearer(KEYS.free));
    expect(created.status).toBe(202);
    const job = await stack.gateway.deps.queues.parse.getJob(created.json.job_id as string);
    expect((job!.data as CrawlJobPayload).request.link_limit).toBe(5);
    expect(job!.data.owner).toEqual(expect.any(String));

    const [final] = (
      await pollUntil(
        () => getJson(created.json.status_url as string, bearer(KEYS.free)).then((r) => r.json),
        (view) => view.status !== 'processing',
      )
    ).slice(-1);
    expect(final).toMatchObject({ status: 'completed', data: { statistics: { total_pages: 5, successful_pages: 5, failed_pages: 0 } } });
  });

  it('scrapes with a key', async () => {
    const response = await getJson(
      `${stack.origin}/v1/scrape?url=${encodeURIComponent(`${blog.origin}/posts/first-post.html`)}`,
      bearer(KEYS.free),
    );
    expect(response.status).toBe(200);
    expect(response.json.content).toMatch(/^# First post\n/);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it('keeps one scrape cache per key: another key never gets a hit on what one key scraped', async () => {
    let version = 0;
    blog.route('/per-key-cache', (_req, res) => {
      version += 1;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><main><h1>Counter</h1><p>This is version ${version} of the page.</p></main></body></html>`);
    });
    const target = `${stack.origin}/v1/scrape?url=${encodeURIComponent(`${blog.origin}/per-key-cache`)}`;
    const first = await getJson(target, bearer(KEYS.free));
    expect([first.status, first.headers.get('x-cache')]).toEqual([200, 'MISS']);
    const other = await getJson(target, bearer(KEYS.pro));
    expect([other.status, other.headers.get('x-cache')]).toEqual([200, 'MISS']);
    expect(other.json.content).toContain('version 2');
    const again = await getJson(target, bearer(KEYS.free));
    expect([again.status, again.headers.get('x-cache')]).toEqual([200, 'HIT']);
    expect(again.json.content).toContain('version 1');
    expect(version).toBe(2);
    const entries = await stack.gateway.deps.redis.keys(`${stack.gateway.config.redis.prefix}:scrape-cache:*`);
    for (const entry of entries) expect(entry).not.toContain(KEYS.free);
  });
});

describe('hosted mode: a rendered page reaches nothing inside (render_js scrape)', () => {
  let stack: ServiceStack;
  let attack: EgressAttack;

  beforeAll(async () => {
    attack = await startEgressAttack();
    stack = await startServiceStack(
      { MODE: 'hosted', API_KEYS, EGRESS_ALLOW: '127.0.0.2' },
      {},
      { resolve: (host) => attack.resolve(host) },
    );
  });
  afterAll(async () => {
    await stack?.close();
    await attack?.close();
  });

  it('renders the attack page through the egress proxy; no vector and no rebinding reaches the internal service', async () => {
    for (const url of [attack.attackUrl, attack.rebindUrl]) {
      const response = await getJson(
        `${stack.origin}/v1/scrape?render_js=true&format=text&fresh=true&url=${encodeURIComponent(url)}`,
        bearer(KEYS.pro),
      );
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.json)).not.toContain('INTERNAL SECRET');
    }
    expect(attack.internal.connections()).toBe(0);
  });

  it('refuses an internal name with the one message, whether it resolves inside or not at all', async () => {
    for (const host of [`db.internal.test:${attack.port}`, 'nowhere.example']) {
      const response = await getJson(`${stack.origin}/v1/scrape?url=${encodeURIComponent(`http://${host}/`)}`, bearer(KEYS.pro));
      expect(response.status).toBe(403);
      expect(response.json).toEqual({
        success: false,
        code: 'URL_BLOCKED',
        error: 'The URL resolves to an address this service may not reach',
      });
    }
    expect(attack.internal.connections()).toBe(0);
  });
});
