/**
 * Watches in hosted mode through the real gateway and a parse worker in this process: scheduled
 * checks spend the key's daily quota (the same count its requests spend) and, once it is spent,
 * are recorded as skipped; notify_email gets one confirmation mail and nothing else until its link
 * is opened.
 */
import { Queue } from 'bullmq';
import { PLANS, QUEUES, type WatchJobPayload, type WatchJobResult } from '@sitelens/contracts';
import { DailyQuota } from '@sitelens/queue';
import { WatchStore } from '@sitelens/watch';
import { startFixtureSite, type FixtureSite, testRedisUrl } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';
import { call, startMailSink, type MailSink } from './support/watch-fixtures';

const KEYS = { free: 'hosted-watch-free-0001', pro: 'hosted-watch-pro-0001', other: 'hosted-watch-pro-0002' };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The text of a raw mail, quoted-printable soft breaks and escapes undone. */
function mailText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe('watches in hosted mode', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  let mail: MailSink;
  let queue: Queue;
  let store: WatchStore;
  let fetches = 0;

  const api = (path: string) => `${stack.origin}${path}`;
  const keyId = async (key: string) => {
    const created = await postJson(api('/v1/watch'), { url: `${site.origin}/page`, frequency: 'daily' }, bearer(key));
    const watch = await store.get(created.json.watch_id as string);
    await call('DELETE', api(`/v1/watch/${created.json.watch_id}`), bearer(key));
    return watch!.owner!;
  };
  /** One schedule tick of the watch, as its job scheduler would queue it; resolves with the job's result. */
  const tick = async (watchId: string): Promise<WatchJobResult> => {
    const payload: WatchJobPayload = { watchId, trigger: 'schedule', timeoutSeconds: 120, acceptedAt: Date.now() };
    const job = await queue.add('watch', payload);
    const seen = await pollUntil(() => queue.getJob(job.id!).then((found) => found?.returnvalue as WatchJobResult | undefined), Boolean);
    return seen.at(-1)!;
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/page', (_req, res) => {
      fetches += 1;
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><body><main><h1>Status</h1><p>Visit ${fetches} of this page.</p></main></body></html>`);
    });
    mail = await startMailSink();
    // The minute windows out of the way; the daily ones are the real plans'.
    const plans = {
      free: { ...PLANS.free, requestsPerMinute: 10_000 },
      pro: { ...PLANS.pro, requestsPerMinute: 10_000 },
      enterprise: PLANS.enterprise,
    };
    stack = await startServiceStack(
      { MODE: 'hosted', ALLOW_PRIVATE_URLS: 'true', API_KEYS: `${KEYS.free}:free,${KEYS.pro}:pro,${KEYS.other}:pro`, SMTP_URL: mail.url },
      { plans },
    );
    const prefix = stack.gateway.config.redis.prefix;
    queue = new Queue(QUEUES.parse, { connection: { url: testRedisUrl() }, prefix });
    store = new WatchStore(stack.gateway.deps.redis, prefix);
  });

  afterAll(async () => {
    await queue?.close();
    await stack?.close();
    await mail?.close();
    await site?.close();
  });

  it("counts scheduled checks against the key's daily quota and records a skipped check once it is spent", async () => {
    const owner = await keyId(KEYS.free);
    const created = await postJson(api('/v1/watch'), { url: `${site.origin}/page`, frequency: 'daily' }, bearer(KEYS.free));
    expect(created.status).toBe(201);
    const id = created.json.watch_id as string;
    await pollUntil(
      () => store.results(id),
      (results) => results.length === 1,
    );

    // Three requests so far (create, delete, create); spend all but two of the free plan's 100.
    const quota = new DailyQuota(stack.gateway.deps.redis, stack.gateway.config.redis.prefix);
    expect(await quota.consume(owner, 'free', 95)).toEqual({ allowed: true, remaining: 2 });

    const first = await tick(id);
    expect(first).toMatchObject({ watchId: id, change_type: 'content' });
    // The check spent one: the key's next request spends the last one, the one after is refused.
    const read = await getJson(api(`/v1/watch/${id}`), bearer(KEYS.free));
    expect([read.status, read.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);

    const fetchesBefore = fetches;
    const second = await tick(id);
    expect(second).toMatchObject({ watchId: id, skipped: 'quota', resultId: expect.any(String) });
    expect(fetches).toBe(fetchesBefore);
    const [skipped] = await store.results(id, 1);
    expect(skipped).toMatchObject({ id: second.resultId, trigger: 'schedule', status: 'skipped', code: 'RATE_LIMITED', content: '' });
    expect(skipped!.error).toMatch(/^Not checked: the key's daily quota \(100 requests on the free plan\) is spent; /);
    // The skipped check left the watch's last check as it was.
    expect((await store.get(id))!.last_check).not.toBe(skipped!.executed_at);

    const refused = await getJson(api(`/v1/watch/${id}`), bearer(KEYS.free));
    expect(refused.status).toBe(429);
    expect(refused.json.error).toContain('100 requests per day');
  });

  it('sends notify_email one confirmation mail and nothing else until its link is opened', async () => {
    const address = 'alerts@example.com';
    const body = { url: `${site.origin}/page`, frequency: 'daily', notify_email: address, notification_preference: 'all_runs' };
    const created = await postJson(api('/v1/watch'), body, bearer(KEYS.pro));
    expect(created.status).toBe(201);
    const id = created.json.watch_id as string;
    // The baseline check sends the confirmation request (and no notification).
    await pollUntil(
      () => store.results(id),
      (results) => results.length === 1,
    );
    await pollUntil(
      async () => mail.mails.length,
      (count) => count >= 1,
    );
    expect(mail.mails).toHaveLength(1);
    const request = mailText(mail.mails[0]!);
    expect(request).toContain(`To: ${address}`);
    expect(request).toContain('Subject: [Sitelens] Confirm watch notifications');
    const link = /(http:\/\/\S+\/v1\/watch\/confirm\?token=[A-Za-z0-9_-]{43})/.exec(request)?.[1];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${stack.origin}/`)).toBe(true);

    // Checks that would notify (all_runs), another watch of the same key, another key: no mail.
    const checked = await call('POST', api(`/v1/watch/${id}/check`), bearer(KEYS.pro));
    expect(checked.json).toMatchObject({ success: true, message: 'Check completed', result: { status: 'completed' } });
    const again = await postJson(api('/v1/watch'), body, bearer(KEYS.pro));
    const other = await postJson(api('/v1/watch'), body, bearer(KEYS.other));
    for (const watch of [again, other]) {
      expect(watch.status).toBe(201);
      await pollUntil(
        () => store.results(watch.json.watch_id as string),
        (results) => results.length === 1,
      );
    }
    expect(await tick(other.json.watch_id as string)).toMatchObject({ notifications: {} });
    expect(mail.mails).toHaveLength(1);

    expect((await getJson(api('/v1/watch/confirm?token=not-a-real-token'))).status).toBe(404);
    // Public: whoever reads the mail has no key.
    const confirmed = await getJson(link!);
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ success: true, email: address });
    expect((await getJson(link!)).json).toMatchObject({ success: true, email: address });

    const notified = await call('POST', api(`/v1/watch/${id}/check`), bearer(KEYS.pro));
    expect(notified.json.result).toMatchObject({ status: 'completed' });
    expect(mail.mails).toHaveLength(2);
    expect(mail.mails[1]).toContain(`To: ${address}`);
    expect(mail.mails[1]).not.toContain('Confirm watch notifications');
    // The other key's watches still may not mail the address: consent is per key.
    expect(await tick(other.json.watch_id as string)).toMatchObject({ notifications: {} });
    expect(mail.mails).toHaveLength(2);
  });
});
