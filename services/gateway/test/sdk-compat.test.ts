import { getJson, postJson, startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';

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

  it('answers the Python SDK 200 for a screenshot still processing, so get_screenshot shows its status', async () => {
    // No worker runs here: the job stays queued.
    const created = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/' });
    const jobId = created.json.job_id as string;
    const sdk = await getJson(`${gw.origin}/api/v1/screenshots?job_id=${jobId}`, PYTHON_SDK);
    expect(sdk.status).toBe(200);
    expect(sdk.json).toEqual({ success: true, job_id: jobId, status: 'processing' });
    const plain = await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}`, { accept: '*/*' });
    expect(plain.status).toBe(202);
    expect(plain.json).toEqual(sdk.json);
  });
});
