/**
 * Results out of Redis: a crawl of ten 5 MB pages with include_html, through the real gateway and
 * a parse worker on the test Redis. Page bodies go to the blob store; Redis keeps the job's small
 * state, so the job's keys grow by far less than the pages weigh, and the API still answers every
 * page in full.
 */
import type { ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import { startFixtureSite, type FixtureSite, testRedisUrl } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';

type Json = Record<string, unknown>;
const PAGES = 10;
const MB = 1024 * 1024;

/** A page of about 5 MB: mostly markup (attribute filler), so its markdown stays small. */
function bigPage(n: number, links: string[]): string {
  const filler = 'x'.repeat(9_900);
  const rows = Array.from(
    { length: 510 },
    (_, k) => `<div class="row" data-filler="${filler}"><p>Page ${n} row ${k}: plain words.</p></div>`,
  );
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<html><head><title>Page ${n}</title></head><body><nav>${nav}</nav><main><h1>Page ${n}</h1>${rows.join('')}<p>End of page ${n}.</p></main></body></html>`;
}

/** Bytes Redis holds for every key under the prefix (MEMORY USAGE, all samples). */
async function prefixBytes(redis: Redis, prefix: string): Promise<number> {
  let total = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) total += (await redis.memory('USAGE', key, 'SAMPLES', 0)) ?? 0;
  } while (cursor !== '0');
  return total;
}

describe('a large crawl and Redis', () => {
  let stack: ServiceStack;
  let site: FixtureSite;
  let redis: Redis;
  const pages = new Map<string, string>();

  beforeAll(async () => {
    stack = await startServiceStack({ CONTENT_TIMEOUT: '60s' });
    site = await startFixtureSite();
    const paths = ['/', ...Array.from({ length: PAGES - 1 }, (_, i) => `/p${i + 1}`)];
    paths.forEach((pathname, n) => {
      const html = bigPage(n, n === 0 ? paths.slice(1) : []);
      pages.set(`${site.origin}${pathname}`, html);
      site.route(
        pathname,
        (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
      );
    });
    redis = new Redis(testRedisUrl());
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await site?.close();
    await stack?.close();
  });

  it(`keeps ${PAGES} pages of 5 MB with include_html out of Redis, and answers them in full`, async () => {
    const prefix = stack.gateway.config.redis.prefix;
    const sizes = [...pages.values()].map((html) => Buffer.byteLength(html));
    expect(Math.min(...sizes)).toBeGreaterThan(5 * 1_000_000);
    const keysBefore = await prefixBytes(redis, prefix);

    const created = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, depth: 1, link_limit: PAGES, include_html: true });
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;
    const statusOf = () => getJson(`${stack.origin}/v1/crawl/${jobId}`).then((r) => r.json);
    const [final] = (await pollUntil(statusOf, (view) => view.status !== 'processing', 170_000, 250)).slice(-1);

    const keysAfter = await prefixBytes(redis, prefix);
    expect(keysAfter - keysBefore).toBeLessThan(64 * MB);
    // Far below even that: references and statistics, not bodies.
    expect(keysAfter - keysBefore).toBeLessThan(1 * MB);

    // The event stream is capped (QUEUE_EVENTS_MAX_LEN, default 1,000) where BullMQ's scripts read it.
    expect(await redis.hget(`${prefix}:parse:meta`, 'opts.maxLenEvents')).toBe('1000');

    expect(final).toMatchObject({ success: true, status: 'completed' });
    const data = final!.data as Json;
    expect(data.truncated).toBeUndefined();
    expect(data.error_data).toEqual({});
    expect(data.statistics).toEqual({ total_pages: PAGES, successful_pages: PAGES, failed_pages: 0 });
    const crawled = data.crawl_data as Record<string, Json>;
    expect(Object.keys(crawled).sort()).toEqual([...pages.keys()].sort());
    for (const [url, html] of pages) {
      const page = crawled[url]!;
      expect(page.truncated).toBeUndefined();
      expect(page.html === html).toBe(true);
      expect(page.markdown).toMatch(/End of page \d+\.$/);
    }
  }, 240_000);
});
