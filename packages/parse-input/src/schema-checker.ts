/**
 * Checks user schemas (limits, meta-schema, patterns, Ajv compile), and the model's answers
 * against them, in a worker thread: compiling a 1,000-property schema takes Ajv about half a
 * second, which on the gateway's or the parse worker's event loop would hold everything else. One
 * thread, one task at a time; a task past its deadline has its thread terminated (the next task
 * starts a new one): a schema check is then a 400, an answer check a mismatch saying so.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError, BadRequest } from '@sitelens/contracts';
import type { SchemaCheckReply, SchemaCheckTask } from './schema-check-worker';

export const SCHEMA_CHECK_TIMEOUT_MS = 10_000;

export interface SchemaCheckerOptions {
  /** The worker script (default: the compiled schema-check-worker next to this file). */
  workerScript?: string;
  workerData?: unknown;
  timeoutMs?: number;
}

export interface SchemaChecker {
  /** Resolves when the schema compiles; rejects with `BadRequest` (message `schema: ...`) when not. */
  check(schema: unknown): Promise<void>;
  /** Why `data` does not match the schema (undefined when it does); past the deadline, that it could not be checked. */
  mismatch(schema: unknown, data: unknown): Promise<string | undefined>;
  close(): Promise<void>;
}

interface Pending {
  task: SchemaCheckTask;
  resolve: (mismatch: string | undefined) => void;
  reject: (error: Error) => void;
}

export function createSchemaChecker(options: SchemaCheckerOptions = {}): SchemaChecker {
  const script = options.workerScript ?? path.join(__dirname, 'schema-check-worker.js');
  const timeoutMs = options.timeoutMs ?? SCHEMA_CHECK_TIMEOUT_MS;
  const queue: Pending[] = [];
  let worker: Worker | undefined;
  let running: { job: Pending; timer: NodeJS.Timeout } | undefined;
  let nextId = 1;
  let closed = false;

  const finish = (settle: (job: Pending) => void): void => {
    if (!running) return;
    clearTimeout(running.timer);
    const { job } = running;
    running = undefined;
    settle(job);
    pump();
  };

  /** Stops a worker; its late messages and exit are then ignored. */
  const discard = (stopped: Worker): void => {
    if (worker === stopped) worker = undefined;
    void stopped.terminate();
  };

  const spawn = (): Worker => {
    const created = new Worker(script, { workerData: options.workerData });
    created.unref();
    created.on('message', (reply: SchemaCheckReply) => {
      if (worker !== created || running?.job.task.id !== reply.id) return;
      finish((job) => {
        if (reply.ok) job.resolve(reply.mismatch);
        else if (reply.client) job.reject(new BadRequest(reply.message, { details: { field: 'schema' } }));
        else job.reject(new AppError('INTERNAL', `Schema check failed: ${reply.message}`));
      });
    });
    const fail = (reason: string) => {
      if (worker !== created) return;
      discard(created);
      finish((job) => job.reject(new AppError('INTERNAL', `Schema check worker stopped: ${reason}`, { retryable: true })));
    };
    created.on('error', (error) => fail(error.message));
    created.on('exit', (code) => fail(`exit code ${code}`));
    return created;
  };

  const pump = (): void => {
    if (running || closed) return;
    const job = queue.shift();
    if (!job) return;
    worker ??= spawn();
    const current = worker;
    const timer = setTimeout(() => {
      discard(current);
      finish((late) => {
        if (late.task.data) late.resolve(`could not be checked within ${timeoutMs / 1000} s`);
        else
          late.reject(
            new BadRequest(`schema: could not be checked within ${timeoutMs / 1000} s; make it smaller`, { details: { field: 'schema' } }),
          );
      });
    }, timeoutMs);
    running = { job, timer };
    current.postMessage(job.task);
  };

  const submit = (schema: unknown, data?: { value: unknown }): Promise<string | undefined> => {
    if (closed) return Promise.reject(new AppError('UNAVAILABLE', 'The schema checker is closed'));
    return new Promise<string | undefined>((resolve, reject) => {
      queue.push({ task: { id: nextId++, schema, ...(data ? { data } : {}) }, resolve, reject });
      pump();
    });
  };

  return {
    async check(schema) {
      await submit(schema);
    },
    mismatch: (schema, data) => submit(schema, { value: data }),
    async close() {
      closed = true;
      const gone = new AppError('UNAVAILABLE', 'The schema checker is closed');
      for (const job of queue.splice(0)) job.reject(gone);
      if (running) finish((job) => job.reject(gone));
      const last = worker;
      worker = undefined;
      await last?.terminate();
    },
  };
}
