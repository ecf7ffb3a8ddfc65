import { API_ROUTES } from '../src/routes';
import { startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';

/** The Supacrawler SDKs reach the API at `/v1/...` (self-hosted base) or `/api/v1/...` (hosted base). */
describe('API path prefixes', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const concrete = (path: string) => path.replace(/:[a-z_]+/g, 'no-such-id').replace(/\*[a-z_]+/g, 'no/such/file');

  it('mounts every /v1 route under /api/v1 as well, with the same handler', async () => {
    const v1 = API_ROUTES.flatMap((route) =>
      route.paths.filter((path) => path.startsWith('/v1/')).map((path) => ({ method: route.method, path })),
    );
    expect(v1.length).toBeGreaterThan(3);
    for (const { method, path } of v1) {
      for (const prefix of ['', '/api']) {
        const response = await fetch(`${gw.origin}${prefix}${concrete(path)}`, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body: method === 'get' || method === 'delete' ? undefined : '{}',
        });
        const body = (await response.json()) as { error?: string };
        expect([`${method} ${prefix}${path}`, body.error ?? '']).not.toEqual([
          `${method} ${prefix}${path}`,
          expect.stringMatching(/^No route for/),
        ]);
      }
    }
  });
});
