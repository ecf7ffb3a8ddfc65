/**
 * Outbound webhooks (crawl completion, watch notifications): a JSON POST signed with
 * `X-Signature: sha256=<hex HMAC-SHA256 of the body>`, sent through the same address rule as page
 * fetches (checked at connect time), retried with doubling backoff on network errors, 408, 429
 * and 5xx. Redirects are not followed: a receiver answers where it was told to.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { AppError, errorMessage, sleep } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { assertPublicUrl, createSafeLookup, type Resolver, type UrlCheckOptions } from './url-policy';

export const SIGNATURE_HEADER = 'x-signature';

export function signWebhookBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface WebhookDelivery {
  url: string;
  /** Serialized as JSON; the signature covers exactly the bytes sent. */
  payload: unknown;
  /** Extra headers the client asked for (e.g. webhook_headers); ours win on conflicts. */
  headers?: Record<string, string>;
  secret: string;
}

/** The URL policy the receiver must pass, and the delivery's own bounds. */
export interface WebhookOptions extends UrlCheckOptions {
  resolve?: Resolver;
  /** Tries in all, the first included (default 4). */
  attempts?: number;
  /** First wait between tries; each later wait doubles (default 1 s). */
  baseDelayMs?: number;
  /** Bound of each try (default 10 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  logger?: Logger;
}

export interface WebhookOutcome {
  delivered: boolean;
  status?: number;
  attempts: number;
  error?: string;
}

const RETRY_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/** Delivers one webhook. Never throws for the receiver's failures: the outcome says what happened. */
export async function deliverWebhook(delivery: WebhookDelivery, options: WebhookOptions): Promise<WebhookOutcome> {
  try {
    assertPublicUrl(delivery.url, options);
  } catch (error) {
    return { delivered: false, attempts: 0, error: errorMessage(error) };
  }
  const body = JSON.stringify(delivery.payload);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(delivery.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    'content-type': 'application/json',
    'user-agent': 'Sitelens-Webhook/1',
    [SIGNATURE_HEADER]: signWebhookBody(body, delivery.secret),
  };
  const attempts = Math.max(1, options.attempts ?? 4);
  const dispatcher = new Agent({
    connect: { lookup: createSafeLookup(options) as never },
  });
  let last: WebhookOutcome = { delivered: false, attempts: 0 };
  try {
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (options.signal?.aborted) break;
      try {
        const response = await request(delivery.url, {
          method: 'POST',
          body,
          headers,
          dispatcher,
          maxRedirections: 0,
          headersTimeout: options.timeoutMs ?? 10_000,
          bodyTimeout: options.timeoutMs ?? 10_000,
          signal: options.signal,
        } as Parameters<typeof request>[1]);
        await response.body.dump().catch(() => undefined);
        if (response.statusCode < 300) return { delivered: true, status: response.statusCode, attempts: attempt };
        last = { delivered: false, status: response.statusCode, attempts: attempt, error: `receiver answered ${response.statusCode}` };
        if (!RETRY_STATUSES.has(response.statusCode)) return last;
      } catch (error) {
        const blocked = error instanceof AppError && error.code === 'URL_BLOCKED';
        last = { delivered: false, attempts: attempt, error: errorMessage(error) };
        if (blocked) return last;
      }
      if (attempt < attempts) {
        options.logger?.debug({ attempt, error: last.error }, 'webhook delivery failed; retrying');
        // Aborted: stop waiting; the loop's next attempt sees the signal.
        await sleep((options.baseDelayMs ?? 1_000) * 2 ** (attempt - 1), options.signal).catch(() => undefined);
      }
    }
    return last;
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}
