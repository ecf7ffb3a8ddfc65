/**
 * Watches through the real gateway and a parse worker in this process, against a local page whose
 * content changes between checks: the baseline at create, POST /check with a diff, the signed
 * webhook (retried after a failure) and the e-mail, selectors, volatile markup, screenshots.
 */
import { Worker } from 'bullmq';
import { QUEUES } from '@sitelens/contracts';
import { signWebhookBody } from '@sitelens/egress';
import { startFixtureSite, type FixtureSite, testRedisUrl } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';
import { call, startHookReceiver, startMailSink, type HookReceiver, type MailSink } from './support/watch-fixtures';

const SECRET = 'watch-test-webhook-secret';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4AWMAAQAABQABNtCI3QAAAABJRU5ErkJggg==', 'base64');

function pricingPage(state: { price: number; intro: string; showPrice: boolean }): string {
  const price = state.showPrice ? `<div id="price"><p>Basic: ${state.price} EUR</p></div>` : '';
  return `<html><head><title>Pricing</title></head><body><nav><a href="/">Home</a></nav><main><h1>Pricing</h1>
<p>${state.intro} Every plan includes support, updates and a friendly team that answers within a day.</p>
${price}<p>Questions? Write to us any time and we will get back to you.</p></main></body></html>`;
}

/** A page whose markup changes on every request in ways no reader sees. */
function volatilePage(visit: number, word: string): string {
  return `<html><head><title>Volatile</title><meta name="csrf-token" content="tok-${visit}"></head><body><main>
<h1>Status</h1><div class="css-${visit.toString(36)}x" data-reactid="${visit}"><!-- rendered at visit ${visit} -->
<p nonce="n${visit}">All systems ${word}. This paragraph explains the status of every service we run.</p>
<p>Incidents are posted here as soon as we know of them, with updates every thirty minutes until they are resolved.</p>
<input type="hidden" name="csrf" value="tok-${visit}"><a href="/details?utm_source=v${visit}">Details</a></div>
<script nonce="n${visit}">window.build = ${visit};</script></main></body></html>`;
}

describe('watch checks', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  let hooks: HookReceiver;
  let mail: MailSink;
  const state = { price: 10, intro: 'Simple pricing for teams.', showPrice: true };
  let visits = 0;
  let word = 'operational';

  const api = (path: string) => `${stack.origin}${path}`;
  const create = (body: Record<string, unknown>) => postJson(api('/v1/watch'), body);
  const results = async (id: string) => ((await getJson(api(`/v1/watch/${id}`))).json.results as any[]) ?? [];
  const baseline = (id: string) =>
    pollUntil(
      () => results(id),
      (list) => list.length >= 1,
    );
  const check = async (id: string) => {
    const response = await call('POST', api(`/v1/watch/${id}/check`));
    expect(response.status).toBe(200);
    return response.json.result;
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/pricing', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(pricingPage(state)));
    site.route('/volatile', (_req, res) => {
      visits += 1;
      res.writeHead(200, { 'content-type': 'text/html' }).end(volatilePage(visits, word));
    });
    hooks = await startHookReceiver();
    mail = await startMailSink();
    stack = await startServiceStack({ WEBHOOK_SECRET: SECRET, SMTP_URL: mail.url, SMTP_FROM: 'Watch Test <watch@sitelens.test>' });
  });

  afterAll(async () => {
    await stack?.close();
    await hooks?.close();
    await mail?.close();
    await site?.close();
  });

  beforeEach(() => {
    Object.assign(state, { price: 10, intro: 'Simple pricing for teams.', showPrice: true });
  });

  it('takes a baseline at create, then reports a change with a diff, a signed webhook (retried) and an e-mail', async () => {
    const created = await create({
      url: `${site.origin}/pricing`,
      frequency: 'daily',
      webhook_url: hooks.url,
      notify_email: 'ops@example.com',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      success: true,
      message: 'Watch created',
      watch: { status: 'active', notification_preference: 'changes_only' },
    });
    const id = created.json.watch_id as string;

    const [first] = (await baseline(id)).at(-1)!;
    expect(first).toMatchObject({ trigger: 'create', status: 'completed', has_changed: false, change_type: 'first', image_url: null });
    expect(first.content).toContain('Basic: 10 EUR');
    expect(first.content).not.toContain('Home');
    expect(first.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hooks.received).toHaveLength(0);

    state.price = 12;
    hooks.failNext(503);
    const changed = await check(id);
    expect(changed).toMatchObject({
      trigger: 'manual',
      has_changed: true,
      change_type: 'content',
      diff_stats: { added_lines: 1, removed_lines: 1 },
    });
    expect(changed.diff).toContain('-Basic: 10 EUR\n+Basic: 12 EUR');
    expect(changed.content_hash).not.toBe(first.content_hash);

    // The receiver failed the first delivery; the second, after a backoff, went through.
    expect(hooks.received.map((hook) => hook.answered)).toEqual([503, 200]);
    for (const hook of hooks.received) {
      expect(hook.body).toBe(hooks.received[0]!.body);
      expect(hook.headers['x-signature']).toBe(signWebhookBody(hook.body, SECRET));
    }
    const payload = JSON.parse(hooks.received[0]!.body);
    expect(payload).toMatchObject({ type: 'watch', event: 'watch.changed', watch_id: id, url: `${site.origin}/pricing` });
    expect(payload.result).toMatchObject({
      id: changed.id,
      has_changed: true,
      change_type: 'content',
      diff: changed.diff,
      has_image: false,
    });
    expect(payload.result).not.toHaveProperty('image_key');

    expect(mail.mails).toHaveLength(1);
    expect(mail.mails[0]).toContain('To: ops@example.com');
    expect(mail.mails[0]).toContain('Watch Test <watch@sitelens.test>');
    expect(mail.mails[0]).toContain('+Basic: 12 EUR');

    const unchanged = await check(id);
    expect(unchanged).toMatchObject({ has_changed: false, change_type: 'none' });
    expect(hooks.received).toHaveLength(2);

    const got = await getJson(api(`/v1/watch/${id}`));
    expect(got.status).toBe(200);
    expect((got.json.results as any[]).map((result) => result.change_type)).toEqual(['none', 'content', 'first']);
    const watch = got.json.watch as Record<string, unknown>;
    expect(watch).toMatchObject({ id, status: 'active', last_check: unchanged.executed_at, last_change: changed.executed_at });
    expect(watch.last_notification).toEqual(expect.any(String));
    expect(Date.parse(watch.next_check as string)).toBeGreaterThan(Date.now());
    expect(watch).not.toHaveProperty('owner');

    const listed = await getJson(api('/api/v1/watch'));
    expect(listed.json.success).toBe(true);
    expect((listed.json.watches as any[]).map((w) => w.id)).toContain(id);
    expect(listed.json.total).toBe((listed.json.watches as any[]).length);
  });

  it('watches only the selected element: other edits do not count; it can go away and come back', async () => {
    const created = await create({
      url: `${site.origin}/pricing`,
      frequency: 'hourly',
      selector: '#price',
      notification_preference: 'all_runs',
    });
    const id = created.json.watch_id as string;
    const [first] = await baseline(id).then((seen) => seen.at(-1)!);
    expect(first.content).toBe('Basic: 10 EUR');

    state.intro = 'Completely new introduction text.';
    expect(await check(id)).toMatchObject({ has_changed: false, change_type: 'none' });

    state.showPrice = false;
    const removed = await check(id);
    expect(removed).toMatchObject({ has_changed: true, change_type: 'removed', content: '' });
    expect(removed.diff).toContain('-Basic: 10 EUR');

    state.showPrice = true;
    state.price = 15;
    const added = await check(id);
    expect(added).toMatchObject({ has_changed: true, change_type: 'added', content: 'Basic: 15 EUR' });
  });

  it('with include_html, markup that changes on every load (nonces, tokens, generated ids) is not a change', async () => {
    const created = await create({ url: `${site.origin}/volatile`, frequency: 'daily', include_html: true });
    const id = created.json.watch_id as string;
    await baseline(id);
    const same = await check(id);
    expect(same).toMatchObject({ has_changed: false, change_type: 'none' });
    expect(same.html_content).toContain('data-reactid');

    word = 'degraded';
    const changed = await check(id);
    expect(changed).toMatchObject({ has_changed: true, change_type: 'content' });
    expect(changed.diff).toContain('+All systems degraded.');
  });

  it('with include_image, takes a screenshot through the screenshot queue and signs a fresh image URL', async () => {
    const prefix = stack.gateway.config.redis.prefix;
    const requests: unknown[] = [];
    // Stands in for the screenshot worker: stores an image where the real one would and answers like it.
    const shots = new Worker(
      QUEUES.screenshot,
      async (job) => {
        requests.push(job.data.request);
        const key = `screenshots/${job.id}.jpg`;
        await stack.gateway.store.put(key, PNG, 'image/jpeg');
        return { key, contentType: 'image/jpeg', metadata: { width: 1, height: 1, format: 'jpeg' } };
      },
      { connection: { url: testRedisUrl() }, prefix },
    );
    try {
      const created = await create({
        url: `${site.origin}/pricing`,
        frequency: 'weekly',
        include_image: true,
        full_page: true,
        quality: 70,
      });
      const id = created.json.watch_id as string;
      const [first] = await baseline(id).then((seen) => seen.at(-1)!);
      expect(requests[0]).toMatchObject({ url: `${site.origin}/pricing`, full_page: true, format: 'jpeg', quality: 70 });
      expect(first.image_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/files\/screenshots\/.+\?expires=\d+&signature=/);
      const image = await fetch(first.image_url);
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);

      // Signed again on every read: once the clock has moved past the first signature's second, a
      // read gets a later expiry (polled with a deadline, not slept).
      const [again] = await pollUntil(
        () => results(id),
        (list) => list[0].image_url !== first.image_url,
        10_000,
        100,
      ).then((seen) => seen.at(-1)!);
      const expiry = (url: string) => Number(new URL(url).searchParams.get('expires'));
      expect(expiry(again.image_url)).toBeGreaterThan(expiry(first.image_url));
      expect((await fetch(again.image_url)).status).toBe(200);

      const deleted = await call('DELETE', api(`/v1/watch/${id}`));
      expect(deleted).toEqual({ status: 200, json: { success: true, message: 'Watch deleted' } });
      expect((await fetch(first.image_url)).status).toBe(404);
      expect((await getJson(api(`/v1/watch/${id}`))).status).toBe(404);
    } finally {
      await shots.close();
    }
  });

  it('answers 404 for unknown watches on every route', async () => {
    for (const [method, path] of [
      ['GET', '/v1/watch/nope'],
      ['DELETE', '/v1/watch/nope'],
      ['PATCH', '/v1/watch/nope/pause'],
      ['PATCH', '/v1/watch/nope/resume'],
      ['POST', '/v1/watch/nope/check'],
    ] as const) {
      const response = await call(method, api(path));
      expect([method, path, response.status, response.json.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
  });
});
