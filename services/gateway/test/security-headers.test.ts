/**
 * Every answer of the public port carries X-Content-Type-Options: nosniff and
 * Referrer-Policy: no-referrer: successes, errors, 404s, signed file URLs, the API reference,
 * the queue dashboard, in local and hosted mode.
 */
import { startTestGateway, postJson, type TestGateway } from '@sitelens/testkit/test-gateway';

const ADMIN = 'security-headers-admin-token';
const KEY = 'sk_test_security_headers';

function expectSecurityHeaders(what: string, headers: Headers): void {
  expect([what, headers.get('x-content-type-options'), headers.get('referrer-policy')]).toEqual([what, 'nosniff', 'no-referrer']);
}

describe.each([
  ['local', {}],
  ['hosted', { MODE: 'hosted', API_KEYS: `${KEY}:pro` }],
])('security headers (%s mode)', (_mode, env) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ ...env, ADMIN_TOKEN: ADMIN });
  });
  afterAll(async () => {
    await gw.close();
  });
  const auth = { authorization: `Bearer ${KEY}` };

  it('are on successes, 4xx errors and 404s', async () => {
    const cases: Array<[string, Promise<Response>]> = [
      ['health', fetch(`${gw.origin}/v1/health`)],
      ['openapi', fetch(`${gw.origin}/openapi.json`)],
      ['docs', fetch(`${gw.origin}/docs`)],
      ['unknown route', fetch(`${gw.origin}/no/such/route`, { headers: auth })],
      ['unknown job', fetch(`${gw.origin}/v1/screenshots/00000000-0000-4000-8000-000000000000`, { headers: auth })],
      [
        'no key (hosted) or bad body',
        fetch(`${gw.origin}/v1/screenshots`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      ],
      ['dashboard without token', fetch(`${gw.origin}/admin/queues`)],
      ['dashboard', fetch(`${gw.origin}/admin/queues`, { headers: { authorization: `Bearer ${ADMIN}` } })],
      ['bad file signature', fetch(`${gw.origin}/v1/files/screenshots/x.png?expires=1&signature=nope`)],
    ];
    for (const [what, pending] of cases) {
      const response = await pending;
      await response.arrayBuffer();
      expect([what, response.status < 500]).toEqual([what, true]);
      expectSecurityHeaders(what, response.headers);
    }
  });

  it('are on a file served from a signed URL', async () => {
    await gw.store.put('screenshots/headers-test.png', Buffer.from('not really a png'), 'image/png');
    const { url } = await gw.store.signedUrl('screenshots/headers-test.png', { ttlSeconds: 60, origin: gw.origin });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('not really a png');
    expectSecurityHeaders('signed file', response.headers);
  });

  it('are on a malformed JSON body answer', async () => {
    const response = await postJson(`${gw.origin}/v1/screenshots`, '{', auth);
    expect(response.status).toBe(400);
    expectSecurityHeaders('malformed body', response.headers);
  });
});
