/**
 * A small pool of worker threads for content extraction (Readability and turndown are CPU-bound),
 * so a crawl uses every core. A task waits for a free worker; a worker that dies fails its task
 * and is replaced. Create one per process and close it on shutdown.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError } from '@sitelens/contracts';
import type { ContentRequest, PageContent } from './page-content';
import type { ContentTask } from './content-worker';

export interface ContentWorkerPoolOptions {
  /** Worker threads (default: one per core). */
  size?: number;
  /** The worker script (default: the compiled content-worker next to this file). */
  workerScript?: string;
  workerData?: unknown;
}

export interface ContentWorkerPool {
  extract(html: string, pageUrl: string, request: ContentRequest): Promise<PageContent>;
  close(): Promise<void>;
}

interface Pending {
  task: ContentTask;
  resolve: (content: PageContent) => void;
  reject: (error: Error) => void;
}

type Reply = { id: number; content: PageContent } | { id: number; error: string };

export function createContentWorkerPool(options: ContentWorkerPoolOptions = {}): ContentWorkerPool {
  const size = Math.max(1, options.size ?? availableParallelism());
  const script = options.workerScript ?? path.join(__dirname, 'content-worker.js');
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const queue: Pending[] = [];
  let started = 0;
  let nextId = 1;
  let closed = false;

  const spawn = (): Worker => {
    const worker = new Worker(script, { workerData: options.workerData });
    worker.unref();
    started += 1;
    worker.on('message', (reply: Reply) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        if ('error' in reply) job.reject(new AppError('INTERNAL', `Content extraction failed: ${reply.error}`));
        else job.resolve(reply.content);
      }
      idle.push(worker);
      pump();
    });
    const fail = (error: Error) => {
      const job = busy.get(worker);
      busy.delete(worker);
      started -= 1;
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      job?.reject(new AppError('INTERNAL', `Content worker stopped: ${error.message}`, { retryable: true }));
      if (!closed) pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (busy.has(worker) || idle.includes(worker)) fail(new Error(`exit code ${code}`));
    });
    return worker;
  };

  const pump = (): void => {
    while (queue.length > 0) {
      const worker = idle.pop() ?? (started < size ? spawn() : undefined);
      if (!worker) return;
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.postMessage(job.task);
    }
  };

  return {
    extract(html, url, request) {
      if (closed) return Promise.reject(new AppError('UNAVAILABLE', 'The content worker pool is closed'));
      return new Promise<PageContent>((resolve, reject) => {
        queue.push({ task: { id: nextId++, html, url, request }, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new AppError('UNAVAILABLE', 'The content worker pool is closed'));
      const workers = [...idle, ...busy.keys()];
      for (const job of busy.values()) job.reject(new AppError('UNAVAILABLE', 'The content worker pool is closed'));
      busy.clear();
      idle.length = 0;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
