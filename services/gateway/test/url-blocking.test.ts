import { startTestGateway, postJson, type TestGateway } from '@sitelens/testkit/test-gateway';

/** Hosted mode refuses private targets at the gateway when the URL itself says where it points. */
describe('private addresses in hosted mode (screenshots)', () => {
  let hosted: TestGateway;
  let local: TestGateway;
  const key = 'sk_test_urlblocking_0123456789abcdef';
  beforeAll(async () => {
    hosted = await startTestGateway({ MODE: 'hosted', API_KEYS: `${key}:pro` });
    local = await startTestGateway();
  });
  afterAll(async () => {
    await hosted.close();
    await local.close();
  });

  const spellings = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://localhost:8080/',
    'http://app.localhost/',
  ];

  it.each(spellings)('refuses %s with 403 URL_BLOCKED', async (url) => {
    const response = await postJson(`${hosted.origin}/v1/screenshots`, { url }, { authorization: `Bearer ${key}` });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    expect(typeof response.json.error).toBe('string');
  });

  it('accepts a public address in hosted mode', async () => {
    const response = await postJson(
      `${hosted.origin}/v1/screenshots`,
      { url: 'http://93.184.215.14/' },
      { authorization: `Bearer ${key}` },
    );
    expect(response.status).toBe(202);
  });

  it('lets private addresses through in local mode (ALLOW_PRIVATE_URLS defaults to true)', async () => {
    const response = await postJson(`${local.origin}/v1/screenshots`, { url: 'http://127.0.0.1:9/' });
    expect(response.status).toBe(202);
  });
});
