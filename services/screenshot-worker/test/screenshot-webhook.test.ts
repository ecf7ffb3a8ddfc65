/**
 * A screenshot's webhook_url: the finished job is POSTed, signed with the signing secret, with a
 * freshly signed image URL on the client's origin; a failed job is POSTed with its code.
 */
import { Queue } from 'bullmq';
import type { IncomingHttpHeaders } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@sitelens/config';
import { QUEUES, screenshotCreateRequest } from '@sitelens/contracts';
import { createLogger } from '@sitelens/telemetry';
import { chromePath, startFixtureSite, testRedisUrl, uniquePrefix, type FixtureSite } from '@sitelens/testkit';
import { signWebhookBody } from '@sitelens/egress';
import { startScreenshotWorker, type RunningScreenshotWorker } from '../src';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('screenshot webhooks', () => {
  let site: FixtureSite;
  let worker: RunningScreenshotWorker;
  let queue: Queue;
  const waiting = new Map<string, (delivery: Delivery) => void>();
  /** Resolves with the webhook delivered for `jobId`. */
  const delivered = (jobId: string) => new Promise<Delivery>((resolve) => waiting.set(jobId, resolve));

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1 id="title">Hook</h1>'));
    site.route('/hook', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        res.writeHead(204).end();
        const { job_id: jobId } = JSON.parse(body) as { job_id: string };
        waiting.get(jobId)?.({ headers: req.headers, body });
      });
    });
    const prefix = uniquePrefix('shot-webhook');
    const config = loadConfig({
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: prefix,
      ROLE: 'all',
      CHROME_PATH: chromePath(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitelens-shot-webhook-')),
      SCREENSHOT_CONCURRENCY: '1',
      WEBHOOK_SECRET: 'hook-secret',
    });
    worker = await startScreenshotWorker(config, createLogger({ level: 'silent', service: 'test' }));
    queue = new Queue(QUEUES.screenshot, { connection: { url: testRedisUrl() }, prefix });
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await site?.close();
  });

  const enqueue = (fields: Record<string, unknown>) => {
    const request = screenshotCreateRequest.parse({
      url: `${site.origin}/`,
      webhook_url: `${site.origin}/hook`,
      webhook_headers: { 'X-Receiver-Token': 'abc' },
      ...fields,
    });
    return queue.add('screenshot', { request, origin: 'http://gateway.test:8081', timeoutSeconds: 40, acceptedAt: Date.now() });
  };

  it('POSTs the finished job, signed, with a signed image URL valid 15 minutes on the client origin', async () => {
    const job = await enqueue({ device: 'custom', width: 400, height: 300 });
    const { headers, body } = await delivered(job.id!);
    expect(headers['x-signature']).toBe(signWebhookBody(body, 'hook-secret'));
    expect(headers['x-receiver-token']).toBe('abc');
    const payload = JSON.parse(body) as Record<string, unknown> & {
      screenshot: string;
      expires_at: string;
      metadata: Record<string, unknown>;
    };
    expect(payload).toMatchObject({ job_id: job.id, type: 'screenshot', status: 'completed', url: `${site.origin}/` });
    expect(payload.metadata).toMatchObject({ width: 400, height: 300, format: 'png' });
    const image = new URL(payload.screenshot);
    expect(image.origin).toBe('http://gateway.test:8081');
    expect(image.searchParams.get('signature')).toBeTruthy();
    const ttl = Date.parse(payload.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
  });

  it('POSTs a failed job with its code and message', async () => {
    const job = await enqueue({ selector: '#missing' });
    const { headers, body } = await delivered(job.id!);
    expect(headers['x-signature']).toBe(signWebhookBody(body, 'hook-secret'));
    expect(JSON.parse(body)).toMatchObject({ job_id: job.id, type: 'screenshot', status: 'failed', code: 'SELECTOR_NOT_FOUND' });
  });
});
