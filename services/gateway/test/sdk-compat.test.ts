import { startTestGateway, postJson, type TestGateway } from './support/test-gateway';

/** What the Supacrawler Python SDK's generated client sends, and what it can read. */
const PYTHON_SDK = { 'user-agent': 'python-httpx/0.28.1', accept: 'application/json' };

describe('Supacrawler SDK compatibility of job creation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each([
    ['/v1/screenshots', { url: 'https://example.com/' }, 'screenshot'],
    ['/api/v1/crawl', { url: 'https://example.com/' }, 'crawl'],
  ])('POST %s answers the Python SDK 200 with the same body, everyone else 202', async (path, body, type) => {
    const sdk = await postJson(`${gw.origin}${path}`, body, PYTHON_SDK);
    expect(sdk.status).toBe(200);
    expect(sdk.json).toMatchObject({ success: true, type, status: 'processing', job_id: expect.any(String) });

    const plain = await postJson(`${gw.origin}${path}`, body, { 'user-agent': 'curl/8.5.0', accept: '*/*' });
    expect(plain.status).toBe(202);
    expect(plain.json).toMatchObject({ success: true, type, status: 'processing' });

    // httpx without the SDK's Accept header is any other client.
    const httpx = await postJson(`${gw.origin}${path}`, body, { 'user-agent': 'python-httpx/0.28.1', accept: '*/*' });
    expect(httpx.status).toBe(202);
  });
});
