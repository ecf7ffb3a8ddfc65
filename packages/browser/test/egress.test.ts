/**
 * Hosted mode: whatever a page does once loaded, the browser reaches only what the URL policy
 * allows. The same hostile page runs once without the egress proxy (the control: every vector
 * really does reach the internal service) and then with it (no vector does).
 */
import { Writable } from 'node:stream';
import type { Config } from '@sitelens/config';
import { createLogger } from '@sitelens/telemetry';
import { captureScreenshot, openGuardedBrowser, renderHtml, type GuardedBrowser } from '../src';
import { OBSERVED_VECTORS, startEgressAttack, type EgressAttack, chromePath } from '@sitelens/testkit';
import { expectAppError, request } from './support/helpers';

/** A logger whose lines the test reads: the proxy logs each refusal's host and reason. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ level: 'info', service: 'egress-test' }, sink);
  const refusedHosts = () => new Set(lines.filter((line) => line.msg === 'egress refused').map((line) => String(line.host)));
  return { logger, lines, refusedHosts };
}

function browserConfig(allowPrivateUrls: boolean): Pick<Config, 'browser' | 'allowPrivateUrls' | 'egressAllow'> {
  return {
    allowPrivateUrls,
    egressAllow: { cidrs: ['127.0.0.2/32'], hosts: [], suffixes: [] },
    browser: {
      executablePath: chromePath(),
      concurrency: 2,
      prefetch: 1,
      recycleAfter: 1000,
      fullPageMaxHeight: 16_384,
      maxPixels: 50_000_000,
      pageMemoryLimitMb: 1024,
      sandbox: 'auto',
      runAsUser: 'nobody',
      env: {},
      adblockListUrls: [],
      chatListUrls: [],
      trackerListUrls: [],
      filterListsDir: undefined,
    },
  };
}

const captureOptions = (browser: GuardedBrowser, logger: ReturnType<typeof capturingLogger>['logger']) => ({
  fullPageMaxHeight: 16_384,
  maxPixels: 50_000_000,
  logger,
  urlGuard: browser.urlGuard,
});
const attackShot = (url: string) => request({ url, device: 'custom', width: 800, height: 600, wait_for_selector: '#done', timeout: 30 });

describe('the browser egress path', () => {
  let attack: EgressAttack;

  beforeAll(async () => {
    attack = await startEgressAttack();
  });
  afterAll(async () => {
    await attack.close();
  });

  it('control: without the proxy, every vector of the page reaches the internal service', async () => {
    const { logger } = capturingLogger();
    const browser = await openGuardedBrowser(browserConfig(true), { logger, extraArgs: [`--host-resolver-rules=${attack.hostRules}`] });
    try {
      await captureScreenshot(browser.pool, attackShot(attack.attackUrl), captureOptions(browser, logger));
      const reached = new Set(attack.internal.hosts.map((host) => host.split('.')[0]));
      for (const vector of OBSERVED_VECTORS) expect(reached).toContain(vector);
      expect(attack.internal.hosts).toContain(`127.0.0.3:${attack.port}`);
    } finally {
      await browser.close();
    }
  });

  describe('hosted mode (the proxy)', () => {
    let browser: GuardedBrowser;
    let log: ReturnType<typeof capturingLogger>;
    let before: number;

    beforeAll(async () => {
      log = capturingLogger();
      browser = await openGuardedBrowser(browserConfig(false), { logger: log.logger, resolve: (host) => attack.resolve(host) });
      before = attack.internal.connections();
    });
    afterAll(async () => {
      await browser.close();
    });

    it('runs Chromium sandboxed as an unprivileged user, through the proxy', async () => {
      await browser.pool.start();
      const launch = log.lines.find((line) => String(line.msg).startsWith('chromium launched'));
      expect(launch).toMatchObject({ sandbox: true, user: 'nobody', egressProxy: true });
      expect(browser.egress?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it('refuses every vector of the page at the proxy, and none reaches the internal service (screenshot)', async () => {
      const shot = await captureScreenshot(browser.pool, attackShot(attack.attackUrl), captureOptions(browser, log.logger));
      expect(shot.image.length).toBeGreaterThan(0);
      const refused = log.refusedHosts();
      for (const vector of OBSERVED_VECTORS) expect(refused).toContain(`${vector}.internal.test`);
      expect(refused).toContain('127.0.0.3');
      expect(attack.internal.connections() - before).toBe(0);
    });

    it('refuses them in render_js scraping too', async () => {
      const rendered = await renderHtml(browser.pool, attack.attackUrl, { timeoutMs: 20_000, urlGuard: browser.urlGuard });
      expect(rendered.html).toContain('Nothing to see');
      expect(rendered.html).not.toContain('INTERNAL SECRET');
      expect(attack.internal.connections() - before).toBe(0);
    });

    it('connects to the address it checked: a name that rebinds to an internal address after the check is refused', async () => {
      const rendered = await renderHtml(browser.pool, attack.rebindUrl, { timeoutMs: 20_000, urlGuard: browser.urlGuard });
      // The page's fetch of /secret got the proxy's refusal, not the internal service's answer.
      expect(rendered.html).toContain('<p id="secret">The URL resolves to an address this service may not reach</p>');
      expect(rendered.html).not.toContain('INTERNAL SECRET');
      expect(log.lines.some((line) => line.msg === 'egress refused' && line.host === 'rebind.test')).toBe(true);
      expect(attack.internal.connections() - before).toBe(0);
    });

    it('refuses the page itself when it resolves inside, with the one message that says nothing of the inside', async () => {
      const error = await expectAppError(
        captureScreenshot(browser.pool, request({ url: `http://db.internal.test:${attack.port}/` }), captureOptions(browser, log.logger)),
        'URL_BLOCKED',
        false,
      );
      expect(error.message).toBe('The URL resolves to an address this service may not reach');
      const unresolvable = await expectAppError(
        captureScreenshot(browser.pool, request({ url: `http://nowhere.example:${attack.port}/` }), captureOptions(browser, log.logger)),
        'URL_BLOCKED',
        false,
      );
      expect(unresolvable.message).toBe(error.message);
      const redirected = await expectAppError(
        captureScreenshot(browser.pool, request({ url: attack.redirectUrl }), captureOptions(browser, log.logger)),
        'URL_BLOCKED',
        false,
      );
      expect(redirected.message).toBe(error.message);
      expect(log.refusedHosts()).toContain('redirect-page.internal.test');
      // A script that sends the tab inside before load: the same refusal, on either capture path.
      for (const direct of [true, false]) {
        const scripted = await expectAppError(
          captureScreenshot(browser.pool, request({ url: attack.scriptRedirectUrl }), { ...captureOptions(browser, log.logger), direct }),
          'URL_BLOCKED',
          false,
        );
        expect(scripted.message).toBe(error.message);
      }
      expect(log.refusedHosts()).toContain('script-page.internal.test');
      expect(attack.internal.connections() - before).toBe(0);
    });

    it('closes the windows a page opens in a loop and keeps serving', async () => {
      // 150 windows opening on a machine whose cores are busy take a while: the request's timeout
      // only bounds the wait (the windows are closed either way), so it is the largest allowed.
      const shot = await captureScreenshot(
        browser.pool,
        { ...attackShot(attack.popupUrl), timeout: 120 },
        captureOptions(browser, log.logger),
      );
      expect(shot.metadata.width).toBe(800);
      expect(attack.internal.connections() - before).toBe(0);
    }, 180_000);
  });
});
