/**
 * A private redis-server child on a loopback port: the suite's shared one (global setup) and the
 * ones fault tests stop and start again on the same port and data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Redis } from 'ioredis';
import { freePort } from './processes';

/** Removes every Redis key under a prefix (queues, counters, watches) once a test is done with it. */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

export interface RedisServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Stops the server (SIGKILL by default: no final save, like a crash or a lost node). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface RedisServerOptions {
  /** Working directory (AOF and RDB files). */
  dir: string;
  /** Default: a free port. Give the old one to bring a stopped server back at the same address. */
  port?: number;
  /** Append-only file on, as the compose file and the k8s StatefulSet run it. */
  appendonly?: boolean;
}

/** Resolves once the server at `port` answers PING; throws after `timeoutMs`. */
export async function waitForRedis(port: number, timeoutMs = 10_000): Promise<void> {
  const { Redis } = await import('ioredis');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined); // refused while the server starts: connect() reports it
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch {
      client.disconnect();
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

export async function startRedisServer(options: RedisServerOptions): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', options.dir];
  args.push('--appendonly', options.appendonly ? 'yes' : 'no');
  if (options.appendonly) args.push('--appendfsync', 'always', '--maxmemory-policy', 'noeviction');
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  await waitForRedis(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    child,
    stop: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
