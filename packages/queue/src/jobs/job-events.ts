/**
 * A job's progress webhooks (`crawl.started`, `crawl.page`, `batch.page`...): sent while the job
 * runs, in order, signed like its completion webhook. Delivery runs in the background; when a
 * receiver is slow and `maxPending` events wait, `push` waits too, so a slow receiver slows the job
 * down (within its time budget) instead of filling memory.
 */
import { deliverWebhook } from '@sitelens/egress';
import type { JobWebhookDeps } from './job-webhook';

export interface JobEventsOptions {
  kind: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  owner: string | undefined;
  /** Events waiting for delivery before `push` waits (default 4). */
  maxPending?: number;
  /** Attempts per event (default 2: progress matters less than the end). */
  attempts?: number;
}

export class JobEvents {
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly waiters: Array<() => void> = [];
  private secret: Promise<string | undefined> | undefined;

  constructor(
    private readonly options: JobEventsOptions,
    private readonly deps: JobWebhookDeps,
  ) {}

  /** Queues one event for delivery after the ones before it. */
  async push(payload: unknown): Promise<void> {
    while (this.pending >= (this.options.maxPending ?? 4)) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.pending += 1;
    this.chain = this.chain
      .then(() => this.deliver(payload))
      .finally(() => {
        this.pending -= 1;
        this.waiters.shift()?.();
      });
  }

  /** Resolves once every event pushed so far was delivered or given up on. */
  drained(): Promise<void> {
    return this.chain;
  }

  private async deliver(payload: unknown): Promise<void> {
    const { kind, url, headers, owner } = this.options;
    const { logger } = this.deps;
    try {
      this.secret ??= this.deps.secrets.secretFor(owner);
      const secret = await this.secret;
      if (secret === undefined) return;
      const result = await deliverWebhook(
        { url, payload, headers, secret },
        { ...this.deps.urlPolicy, logger, attempts: this.options.attempts ?? 2 },
      );
      if (!result.delivered)
        logger.warn({ attempts: result.attempts, status: result.status, err: result.error }, `${kind} event not delivered`);
    } catch (error) {
      logger.warn({ err: (error as Error).message }, `${kind} event failed`);
    }
  }
}
