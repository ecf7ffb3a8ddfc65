/** Pure pieces of watch checks: normalisation, comparison, schedules, cron checks, deadlines. */
import { checkCron, shortestTimeOfDayGap, watchCreateRequest, watchIntervalSeconds } from '@sitelens/contracts';
import { dueEnvelope } from '@sitelens/queue';
import { watchPattern, type WatchSnapshot } from '@sitelens/watch';
import { checkCost } from '../src/watch/check-quota';
import { compareSnapshots } from '../src/watch/compare';
import { contentHash, normaliseHtml, normaliseText, stripVolatileParams } from '../src/watch/normalise';

const snapshot = (content: string, present = true): WatchSnapshot => ({ hash: contentHash(content), content, present });

describe('normalisation', () => {
  it('takes out whitespace noise and invisible characters but keeps line structure and indentation', () => {
    const messy = 'Title\r\n\r\n\r\n\r\nPrice:\u00a0 10\u200b  EUR   \n  - nested   item\t\n';
    expect(normaliseText(messy)).toBe('Title\n\nPrice: 10 EUR\n  - nested item');
    expect(normaliseText('a  \n \n\n\nb')).toBe(normaliseText('a\n\nb'));
  });

  it('drops tracking and cache-busting URL parameters, and keeps meaningful ones', () => {
    expect(stripVolatileParams('https://x.test/a?utm_source=mail&id=7&_=1699999&fbclid=abc')).toBe('https://x.test/a?id=7');
    expect(stripVolatileParams('https://x.test/watch?v=dQw4w9WgXcQ')).toBe('https://x.test/watch?v=dQw4w9WgXcQ');
    expect(stripVolatileParams('https://x.test/a;jsessionid=ABC123')).toBe('https://x.test/a');
    expect(normaliseText('[Buy](https://x.test/p?utm_campaign=1&sku=9)')).toBe('[Buy](https://x.test/p?sku=9)');
  });

  it('reduces HTML to meaningful markup: nonces, tokens, generated ids, classes and comments do not count', () => {
    const a =
      '<div class="css-1a2b" data-reactid="7" id="r-91"><!-- rendered 10:01 --><p nonce="x1">Price <b>10</b></p>' +
      '<input type="hidden" name="csrf" value="tok-1"><a href="/buy?utm_source=a" data-v-3f2a>Buy</a><script>var t=1</script></div>';
    const b =
      '<div class="css-9z8y" data-reactid="12" id="r-44"><!-- rendered 10:02 --><p nonce="y2">Price  <b>10</b></p>\n' +
      '<input type="hidden" name="csrf" value="tok-2"><a href="/buy?utm_source=b" data-v-77aa>Buy</a><script>var t=2</script></div>';
    expect(normaliseHtml(a)).toBe(normaliseHtml(b));
    expect(normaliseHtml(a)).toBe('<div><p>Price <b>10</b></p><a href="/buy">Buy</a></div>');
    expect(normaliseHtml(a)).not.toBe(normaliseHtml(a.replace('<b>10</b>', '<b>12</b>')));
  });
});

describe('comparison', () => {
  it('reports first, none, content, removed and added', () => {
    expect(compareSnapshots(undefined, snapshot('a'))).toEqual({ has_changed: false, change_type: 'first' });
    expect(compareSnapshots(snapshot('a'), snapshot('a'))).toEqual({ has_changed: false, change_type: 'none' });
    expect(compareSnapshots(snapshot('a'), snapshot('b'))).toMatchObject({ has_changed: true, change_type: 'content' });
    expect(compareSnapshots(snapshot('a'), snapshot('', false))).toMatchObject({ has_changed: true, change_type: 'removed' });
    expect(compareSnapshots(snapshot('', false), snapshot('a'))).toMatchObject({ has_changed: true, change_type: 'added' });
    expect(compareSnapshots(snapshot('', false), snapshot('', false))).toEqual({ has_changed: false, change_type: 'none' });
  });

  it('keeps a short unified diff with line counts', () => {
    const before = ['# Prices', '', 'Basic: 10', 'Pro: 20', 'Team: 30', 'Footer'].join('\n');
    const after = ['# Prices', '', 'Basic: 12', 'Pro: 20', 'Team: 30', 'Footer', 'New: 40'].join('\n');
    const result = compareSnapshots(snapshot(before), snapshot(after));
    expect(result.diff).toContain('-Basic: 10\n+Basic: 12');
    expect(result.diff).toContain('+New: 40');
    expect(result.diff).not.toContain('# Prices\n\nBasic');
    expect(result.diff_stats).toEqual({ added_lines: 2, removed_lines: 1 });
  });

  it('cuts a long diff at a line boundary', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `row ${i}`).join('\n');
    const { diff } = compareSnapshots(snapshot(before), snapshot(after));
    expect(diff!.length).toBeLessThan(8_100);
    expect(diff!.endsWith('… (diff truncated)')).toBe(true);
  });
});

describe('schedules', () => {
  const created_at = '2025-03-30T17:42:05.000Z';
  it.each([
    ['hourly', '42 * * * *'],
    ['daily', '42 17 * * *'],
    ['weekly', '42 17 * * 0'],
    ['monthly', '42 17 28 * *'],
  ] as const)('%s runs at the time the watch was made (%s, UTC)', (frequency, pattern) => {
    expect(watchPattern({ frequency, created_at })).toBe(pattern);
  });

  it('custom runs the given cron', () => {
    expect(watchPattern({ frequency: 'custom', custom_frequency: '*/5 * * * *', created_at })).toBe('*/5 * * * *');
  });

  it('checks cron expressions with the scheduler’s parser and measures their interval', () => {
    expect(checkCron('*/5 * * * *')).toEqual({ ok: true, intervalSeconds: 300 });
    expect(checkCron('*/2 * * * * *')).toEqual({ ok: true, intervalSeconds: 2 });
    expect(checkCron('@daily')).toEqual({ ok: true, intervalSeconds: 86_400 });
    for (const bad of ['* * *', '61 * * * *', 'every day', '* * * * * * *', '0 0 31 2 *']) expect(checkCron(bad).ok).toBe(false);
  });

  it('finds the shortest gap of a cron beyond the next few runs', () => {
    // 23:59 on the 31st, then 00:00 on the 1st: the first runs sampled are an hour or more apart.
    expect(checkCron('0,59 0,23 1,31 * *')).toEqual({ ok: true, intervalSeconds: 60 });
    expect(checkCron('0 9 * * 1')).toEqual({ ok: true, intervalSeconds: 604_800 });
    expect(checkCron('0 0,12 * * *')).toEqual({ ok: true, intervalSeconds: 43_200 });
    expect(checkCron('30 0,23 * * *')).toEqual({ ok: true, intervalSeconds: 3_600 });
    expect(checkCron('0,30 * * * * *')).toEqual({ ok: true, intervalSeconds: 30 });
  });

  it.each([
    [{ second: [0], minute: [0, 59], hour: [0, 23] }, 60],
    [{ second: [0], minute: [15], hour: [3] }, Infinity],
    [{ second: [0, 1, 58], minute: [0], hour: [5] }, 1],
    [{ second: [0, 59], minute: [0, 1], hour: [5] }, 1],
    [{ second: [0], minute: [0, 10, 50], hour: [5, 6] }, 600],
    [{ second: [0], minute: [0, 50], hour: [5, 6] }, 600],
  ])('bounds the gaps of the time fields %j at %d s', (fields, gap) => {
    expect(shortestTimeOfDayGap(fields)).toBe(gap);
  });

  it('gives named frequencies their interval', () => {
    expect(watchIntervalSeconds({ frequency: 'hourly' })).toBe(3_600);
    expect(watchIntervalSeconds({ frequency: 'custom', custom_frequency: '*/5 * * * *' })).toBe(300);
  });

  it('prices a check against the daily quota: the schedule pays the check, an image costs a screenshot', () => {
    expect(checkCost({ include_image: false }, 'schedule')).toBe(1);
    expect(checkCost({ include_image: true }, 'schedule')).toBe(2);
    expect(checkCost({ include_image: false }, 'manual')).toBe(0);
    expect(checkCost({ include_image: true }, 'create')).toBe(1);
  });

  it('validates a create request: custom needs a valid cron; a cron with a named frequency is dropped', () => {
    const base = { url: 'https://example.com/pricing' };
    expect(watchCreateRequest.safeParse({ ...base, frequency: 'custom' }).success).toBe(false);
    expect(watchCreateRequest.safeParse({ ...base, frequency: 'custom', custom_frequency: 'soon' }).success).toBe(false);
    const parsed = watchCreateRequest.parse({ ...base, frequency: 'daily', custom_frequency: 'nonsense' });
    expect(parsed).toMatchObject({ frequency: 'daily', notification_preference: 'changes_only', include_html: false });
    expect(parsed.custom_frequency).toBeUndefined();
  });

  it('judges a schedule tick by when it fell due, not by when its scheduler was made', () => {
    const now = Date.now();
    const made = now - 40 * 86_400_000;
    const tick = { id: `repeat:watch-abc:${now}`, repeatJobKey: 'watch-abc', data: { acceptedAt: made, timeoutSeconds: 120 } };
    expect(dueEnvelope(tick).acceptedAt).toBe(now);
    // Other jobs keep their own envelope, however old.
    const plain = { id: 'watch-manual-1', repeatJobKey: undefined, data: { acceptedAt: made, timeoutSeconds: 30 } };
    expect(dueEnvelope(plain).acceptedAt).toBe(made);
  });
});
