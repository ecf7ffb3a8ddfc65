/**
 * The browser's one way out. Chromium is started with this proxy for every scheme and without its
 * implicit loopback bypass, so each connection a page makes (navigations, redirects, subresources,
 * WebSockets, workers of every kind, prefetches, new windows) arrives here first. The proxy resolves
 * the name itself, checks every address with the URL policy, and connects to exactly the addresses
 * it checked: a name that answers differently the next time (DNS rebinding) cannot reach inside.
 * The HTTP handling is proxy-chain's (the proxy Crawlee uses); this module only decides.
 */
import { Agent } from 'node:http';
import { RequestError, Server } from 'proxy-chain';
import { EGRESS_REFUSAL_HEADER, URL_BLOCKED_MESSAGE, isAppError } from '@sitelens/contracts';
import { answerLookup, checkHostResolves, type Resolver, type UrlCheckOptions } from './url-policy';

export interface EgressProxyOptions extends UrlCheckOptions {
  /** Name resolution (the system's by default); tests make a name answer differently each time. */
  resolve?: Resolver;
  /** Address the proxy listens on (loopback; Chromium is its only client). */
  host?: string;
}

export interface EgressProxyStats {
  /** Connections the proxy opened or refused since it started. */
  allowed: number;
  refused: number;
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server. */
  url: string;
  stats(): EgressProxyStats;
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port. Close it after the browser that uses it. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const counts: EgressProxyStats = { allowed: 0, refused: 0 };
  // One pool per proxy, without keep-alive: a socket is never handed to a request it was not checked for.
  const httpAgent = new Agent({ keepAlive: false });
  const host = options.host ?? '127.0.0.1';
  const server = new Server({
    port: 0,
    host,
    verbose: false,
    prepareRequestFunction: async ({ hostname }) => {
      const name = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
      try {
        const addresses = await checkHostResolves(name, options);
        counts.allowed += 1;
        return {
          httpAgent,
          dnsLookup: ((lookupHost: string, lookupOptions: unknown, callback: Parameters<typeof answerLookup>[3]) =>
            answerLookup(lookupHost, addresses, lookupOptions, callback)) as never,
        };
      } catch (error) {
        counts.refused += 1;
        const blocked = isAppError(error) && error.code === 'URL_BLOCKED';
        throw new RequestError(blocked ? URL_BLOCKED_MESSAGE : 'The host could not be resolved', blocked ? 403 : 502, {
          [EGRESS_REFUSAL_HEADER]: blocked ? 'refused' : 'unresolved',
          'content-type': 'text/plain; charset=utf-8',
        });
      }
    },
  });
  // A client that drops a tunnel mid-way is not the service's problem; proxy-chain reports it here.
  server.on('requestFailed', () => undefined);
  await server.listen();
  return {
    url: `http://${host}:${server.port}`,
    stats: () => ({ ...counts }),
    async close() {
      await server.close(true);
      httpAgent.destroy();
    },
  };
}
