import type { Config } from '@sitelens/config';
import { createUrlGuard, startEgressProxy, urlPolicyOf, type EgressProxy, type Resolver } from '@sitelens/egress';
import type { Logger, Metrics } from '@sitelens/telemetry';
import { BrowserPool, type BrowserPoolDeps } from './browser-pool';
import type { UrlGuard } from './request-filter';

export interface GuardedBrowser {
  pool: BrowserPool;
  /** The early check of each request a page makes (clear errors for the page's own navigation). */
  urlGuard: UrlGuard | undefined;
  /** The egress proxy all of Chromium's connections go through; absent when private URLs are allowed. */
  egress: EgressProxy | undefined;
  close(options?: { drainMs?: number }): Promise<void>;
}

export interface GuardedBrowserDeps extends Pick<BrowserPoolDeps, 'extraArgs' | 'candidates'> {
  logger: Logger;
  metrics?: Metrics;
  /** Name resolution of the proxy and the guard (tests give names to fixture hosts). */
  resolve?: Resolver;
}

/**
 * A worker's browser as the URL policy wants it. In hosted mode (private URLs not allowed) every
 * connection Chromium makes leaves through an egress proxy that checks the addresses it connects
 * to; the request filter's guard only makes refusals of the page's own navigation read clearly.
 * In local mode the browser connects directly.
 */
export async function openGuardedBrowser(
  config: Pick<Config, 'browser' | 'allowPrivateUrls' | 'egressAllow'>,
  deps: GuardedBrowserDeps,
): Promise<GuardedBrowser> {
  const policy = { ...urlPolicyOf(config, deps.logger), resolve: deps.resolve };
  const egress = config.allowPrivateUrls ? undefined : await startEgressProxy(policy);
  const pool = new BrowserPool(config.browser, {
    logger: deps.logger,
    metrics: deps.metrics,
    extraArgs: deps.extraArgs,
    candidates: deps.candidates,
    proxyServer: egress?.url,
  });
  return {
    pool,
    urlGuard: config.allowPrivateUrls ? undefined : createUrlGuard(policy),
    egress,
    async close(options) {
      await pool.close(options);
      await egress?.close();
    },
  };
}
