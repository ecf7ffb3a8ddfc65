import type { BlobStore } from '@sitelens/storage';
import { startTestGateway, getJson } from '@sitelens/testkit/test-gateway';
import { freePort } from '@sitelens/testkit';

describe('GET /v1/health', () => {
  it('answers 200 with version, uptime, components and queue counts', async () => {
    const gw = await startTestGateway();
    try {
      await gw.deps.queues.screenshot.add('screenshot', { request: {} as never, timeoutSeconds: 30, acceptedAt: Date.now() });
      const response = await getJson(`${gw.origin}/v1/health`);
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        status: 'ok',
        version: 'test',
        components: { redis: 'ok', storage: 'ok', queues: { screenshot: { waiting: 1, active: 0 }, parse: { waiting: 0, active: 0 } } },
      });
      expect(typeof response.json.uptime_seconds).toBe('number');
    } finally {
      await gw.close();
    }
  });

  it('answers 503 naming storage when the store cannot be reached', async () => {
    const broken: BlobStore = {
      driver: 's3',
      put: async () => undefined,
      get: async () => {
        throw new Error('connect ECONNREFUSED');
      },
      signedUrl: async () => ({ url: 'http://x', expiresAt: 0 }),
      delete: async () => undefined,
      sweep: async () => 0,
      ping: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    };
    const gw = await startTestGateway({}, broken);
    try {
      const response = await getJson(`${gw.origin}/v1/health`);
      expect(response.status).toBe(503);
      expect(response.json).toMatchObject({
        status: 'unavailable',
        components: { redis: 'ok', storage: expect.stringMatching(/unreachable: connect ECONNREFUSED/) },
      });
    } finally {
      await gw.close();
    }
  });

  it('answers 503 naming redis quickly when Redis is down, and jobs get 503 UNAVAILABLE', async () => {
    const port = await freePort();
    const gw = await startTestGateway({ REDIS_URL: `redis://127.0.0.1:${port}` }, undefined, {}, { waitForRedis: false });
    try {
      const response = await getJson(`${gw.origin}/v1/health`);
      expect(response.status).toBe(503);
      expect(response.json).toMatchObject({ status: 'unavailable', components: { redis: 'unreachable' } });
      const create = await fetch(`${gw.origin}/v1/screenshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com' }),
      });
      expect(create.status).toBe(503);
      expect(await create.json()).toMatchObject({ success: false, code: 'UNAVAILABLE' });
    } finally {
      await gw.close();
    }
  });
});
