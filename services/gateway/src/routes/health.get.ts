import { timeLimit } from '@sitelens/contracts';
import { pingRedis } from '@sitelens/queue';
import { defineRoute } from '../http/route';

async function queueCounts(queue: { getJobCounts(...types: string[]): Promise<Record<string, number>> }) {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  return { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0), active: counts.active ?? 0 };
}

async function settle<T>(work: Promise<T>, timeoutMs: number): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await timeLimit(work, timeoutMs, () => new Error('timed out')) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export const healthGet = defineRoute({
  method: 'get',
  paths: ['/v1/health', '/api/v1/health', '/health'],
  summary: 'Health of the gateway and the components it needs (never authenticated or rate limited)',
  tag: 'Service',
  auth: false,
  async handler({ deps }) {
    const redisOk = await pingRedis(deps.redis, 1_000);
    const storage = await settle(deps.store.ping(), 2_000);
    const queues: Record<string, { waiting: number; active: number }> = {};
    if (redisOk) {
      for (const queue of deps.allQueues) {
        const counts = await settle(queueCounts(queue), 1_000);
        if (counts.ok) queues[queue.name] = counts.value;
      }
    }
    const healthy = redisOk && storage.ok;
    return {
      status: healthy ? 200 : 503,
      body: {
        status: healthy ? 'ok' : 'unavailable',
        version: deps.version,
        mode: deps.config.mode,
        uptime_seconds: Math.round((Date.now() - deps.startedAt) / 1000),
        components: {
          redis: redisOk ? 'ok' : 'unreachable',
          storage: storage.ok ? 'ok' : `unreachable: ${storage.error}`,
          queues,
        },
      },
    };
  },
});
