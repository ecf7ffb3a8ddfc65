import { startTestGateway, postJson, getJson, type TestGateway } from '@sitelens/testkit/test-gateway';

describe('screenshot request validation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['missing url', {}, /'url'.*required/],
    ['url not a string', { url: 42 }, /'url': must be a string/],
    [
      'width of the wrong type',
      { url: 'https://example.com', device: 'custom', width: 'wide', height: 500 },
      /'width': must be a whole number/,
    ],
    ['invalid CSS selector', { url: 'https://example.com', hide_selectors: ['###'] }, /'hide_selectors\.0': is not a valid CSS selector/],
    [
      'invalid wait_for_selector',
      { url: 'https://example.com', wait_for_selector: 'div[' },
      /'wait_for_selector': is not a valid CSS selector/,
    ],
    ['ftp url', { url: 'ftp://example.com/x' }, /'url'.*http or https/],
    ['relative url', { url: '/just/a/path' }, /'url'/],
    ['overlong url', { url: `https://example.com/${'a'.repeat(2100)}` }, /'url'.*2048/],
    ['unknown device', { url: 'https://example.com', device: 'watch' }, /'device'/],
    ['custom without size', { url: 'https://example.com', device: 'custom' }, /'width'.*required when device is custom/],
    ['custom too wide', { url: 'https://example.com', device: 'custom', width: 5000, height: 500 }, /'width'.*100 and 3840/],
    ['custom too short', { url: 'https://example.com', device: 'custom', width: 500, height: 50 }, /'height'.*100 and 2160/],
    ['unknown format', { url: 'https://example.com', format: 'gif' }, /'format'/],
    ['quality out of range', { url: 'https://example.com', format: 'jpeg', quality: 0 }, /'quality'/],
    ['full_page not boolean', { url: 'https://example.com', full_page: 'yes' }, /'full_page'/],
    ['hide_selectors not array', { url: 'https://example.com', hide_selectors: '.ad' }, /'hide_selectors'/],
    [
      'too many selectors',
      { url: 'https://example.com', hide_selectors: Array.from({ length: 51 }, (_, i) => `.a${i}`) },
      /'hide_selectors'.*50/,
    ],
    ['empty selector', { url: 'https://example.com', hide_selectors: [''] }, /'hide_selectors\.0'/],
    ['delay too long', { url: 'https://example.com', delay: 31 }, /'delay'/],
    ['timeout too short', { url: 'https://example.com', timeout: 1 }, /'timeout'.*5 and 120/],
    ['unknown wait_until', { url: 'https://example.com', wait_until: 'whenever' }, /'wait_until'/],
    ['body is an array', [1, 2], /JSON object/],
    // Capture controls (issue 15): each names its field.
    [
      'cookie for another site',
      { url: 'https://example.com', cookies: [{ name: 'a', value: '1', domain: 'other.org' }] },
      /'cookies\.0\.domain'.*another site/,
    ],
    ['Host header', { url: 'https://example.com', headers: { Host: 'internal' } }, /'headers\.Host': cannot be set here/],
    ['pdf options on a png', { url: 'https://example.com', pdf: { paper: 'a4' } }, /'pdf': needs format "pdf"/],
    ['unknown paper', { url: 'https://example.com', format: 'pdf', pdf: { paper: 'a9' } }, /'pdf\.paper'/],
    ['thumbnail too wide', { url: 'https://example.com', image_width: 5000 }, /'image_width'.*16 and 3840/],
    ['both url and html', { url: 'https://example.com', html: '<p>x</p>' }, /'html': cannot be given with url/],
    ['html with headers', { html: '<p>x</p>', headers: { 'X-A': '1' } }, /'headers': needs url/],
    ['webhook_url not a URL', { url: 'https://example.com', webhook_url: 'nope' }, /'webhook_url'/],
    [
      'clip over the pixel cap',
      { url: 'https://example.com', device_scale: 3, clip: { x: 0, y: 0, width: 16384, height: 16384 } },
      /clip\.width x clip\.height/,
    ],
  ];

  it.each(bad)('rejects %s with 400 INVALID_REQUEST naming the field', async (_name, body, message) => {
    const response = await postJson(`${gw.origin}/v1/screenshots`, body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
    expect(response.json.error).toMatch(message);
  });

  it('rejects malformed JSON with a JSON 400', async () => {
    const response = await postJson(`${gw.origin}/v1/screenshots`, '{"url": "https://example.com",');
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ success: false, error: 'Malformed JSON in request body', code: 'INVALID_REQUEST' });
  });

  it('rejects a body that is not JSON', async () => {
    const response = await fetch(`${gw.origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'url=x',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      success: false,
      code: 'INVALID_REQUEST',
      error: expect.stringMatching(/Content-Type: application\/json/),
    });
  });

  it('rejects an oversized body with 413', async () => {
    const response = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com', pad: 'x'.repeat(1_100_000) });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await getJson(`${gw.origin}/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('accepts a valid job with 202 and the documented shape, ignoring unknown fields', async () => {
    const response = await postJson(`${gw.origin}/api/v1/screenshots`, {
      url: 'https://example.com/page',
      device: 'mobile',
      something_else: 1,
    });
    expect(response.status).toBe(202);
    expect(response.json).toMatchObject({
      success: true,
      type: 'screenshot',
      status: 'processing',
      url: 'https://example.com/page',
      metadata: { device: 'mobile' },
    });
    expect(response.json.job_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const job = await gw.deps.queues.screenshot.getJob(String(response.json.job_id));
    expect(job?.data.request).toMatchObject({ url: 'https://example.com/page', device: 'mobile', format: 'png', timeout: 30 });
    expect(job?.data.request).not.toHaveProperty('something_else');
  });

  it('treats null fields as not given and accepts jpg as jpeg (existing SDKs send both)', async () => {
    const response = await postJson(`${gw.origin}/v1/screenshots`, {
      url: 'https://example.com',
      format: 'jpg',
      device: null,
      hide_selectors: null,
    });
    expect(response.status).toBe(202);
    const job = await gw.deps.queues.screenshot.getJob(String(response.json.job_id));
    expect(job?.data.request).toMatchObject({ format: 'jpeg', device: 'desktop', hide_selectors: [] });
  });

  it('GET needs a job_id and 404s an unknown one', async () => {
    const missing = await getJson(`${gw.origin}/v1/screenshots`);
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: 'INVALID_REQUEST', error: expect.stringMatching(/'job_id'/) });
    const unknown = await getJson(`${gw.origin}/v1/screenshots?job_id=00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const lookup = await getJson(`${gw.origin}/v1/crawl/00000000-0000-4000-8000-000000000000`);
    expect(lookup.status).toBe(404);
  });

  it('serves an OpenAPI 3.1 document built from the route schemas', async () => {
    const response = await getJson(`${gw.origin}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.json.openapi).toBe('3.1.0');
    const paths = response.json.paths as Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>
    >;
    const create = paths['/v1/screenshots']?.post;
    expect(Object.keys(create?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['url', 'device', 'format', 'full_page', 'dark_mode', 'hide_selectors', 'block_ads', 'wait_for_selector']),
    );
    expect(paths['/v1/crawl/{job_id}']?.get).toBeDefined();
  });
});
