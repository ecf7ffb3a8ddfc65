/**
 * A small pool of worker threads for content extraction (Readability and turndown are CPU-bound),
 * so a crawl uses every core. A task waits for a free worker; a worker that dies fails its task
 * and is replaced. Every task runs under a deadline (CONTENT_TIMEOUT) and its caller's abort
 * signal: when either fires, the thread doing the work is terminated (the only way to stop
 * synchronous code) and a fresh one takes its place for the next task. Create one per process and
 * close it on shutdown.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode } from '@sitelens/contracts';
import type { ContentRequest, PageContent } from './page-content';
import type { ContentTask } from './content-worker';
import type { DocumentType } from './documents';

/** Default wall-clock budget of one page's extraction once a thread has it. */
export const DEFAULT_CONTENT_TIMEOUT_MS = 5_000;
/** Heap of one content thread, in MB. */
export const DEFAULT_CONTENT_HEAP_MB = 512;
/** A PDF or DOCX gets this many times a page's budget. */
export const DOCUMENT_TIMEOUT_FACTOR = 4;

export interface ContentWorkerPoolOptions {
  /** Worker threads (default: one per core). */
  size?: number;
  /** The worker script (default: the compiled content-worker next to this file). */
  workerScript?: string;
  workerData?: unknown;
  /** Budget of one task once a thread runs it (default 5 s); past it the thread is terminated. */
  timeoutMs?: number;
  /** Heap of one thread, in MB (default 512): a task that needs more kills only its thread (CONTENT_TOO_COMPLEX). */
  maxHeapMb?: number;
  /**
   * Memory a document task may add to the process, in MB (default 1024). A PDF or DOCX inflates
   * streams into buffers outside the thread's heap, where `maxHeapMb` does not reach: while one
   * runs, the process's resident size is watched and the thread killed past this much growth.
   */
  maxDocumentGrowthMb?: number;
  /** How often that is checked, in ms (default 50). */
  memoryCheckMs?: number;
}

export interface ExtractOptions {
  /** Aborting stops the task: dropped if queued, its thread terminated if running. */
  signal?: AbortSignal;
}

export interface ContentWorkerPool {
  extract(html: string, pageUrl: string, request: ContentRequest, options?: ExtractOptions): Promise<PageContent>;
  /** A PDF or DOCX read on a thread, under the same deadline as a page. */
  extractDocument(
    bytes: Uint8Array,
    type: DocumentType,
    pageUrl: string,
    request: ContentRequest,
    options?: ExtractOptions,
  ): Promise<PageContent>;
  /** Thread ids of the live worker threads, busy or idle (for probes and tests). */
  threadIds(): number[];
  close(): Promise<void>;
}

interface Pending {
  task: ContentTask;
  signal: AbortSignal | undefined;
  resolve: (content: PageContent) => void;
  reject: (error: Error) => void;
  /** Clears the task's timer and abort listener. */
  settle(): void;
}

type Reply = { id: number; content: PageContent } | { id: number; error: string; code?: ErrorCode };

/** The error of a page whose extraction outlived its budget: not retryable, the page is the cause. */
export function contentTimeout(url: string, timeoutMs: number): AppError {
  return new AppError(
    'CONTENT_TOO_COMPLEX',
    `Processing the content of ${url} did not finish within ${timeoutMs} ms; the page is too large or too complex`,
  );
}

export function createContentWorkerPool(options: ContentWorkerPoolOptions = {}): ContentWorkerPool {
  const size = Math.max(1, options.size ?? availableParallelism());
  const script = options.workerScript ?? path.join(__dirname, 'content-worker.js');
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_CONTENT_TIMEOUT_MS);
  const live = new Set<Worker>();
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  const retire = (worker: Worker): void => {
    live.delete(worker);
    busy.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };

  /** Stops a running task's thread; the next task gets a new one. */
  const kill = (worker: Worker, error: Error): void => {
    const job = busy.get(worker);
    retire(worker);
    void worker.terminate();
    if (job) {
      job.settle();
      job.reject(error);
    }
    if (!closed) pump();
  };

  const spawn = (): Worker => {
    const worker = new Worker(script, {
      workerData: options.workerData,
      // One page (or PDF) cannot take the process's memory: past this heap the thread dies, alone.
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_CONTENT_HEAP_MB },
    });
    worker.unref();
    live.add(worker);
    worker.on('message', (reply: Reply) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        job.settle();
        if ('error' in reply) {
          job.reject(
            reply.code ? new AppError(reply.code, reply.error) : new AppError('INTERNAL', `Content extraction failed: ${reply.error}`),
          );
        } else job.resolve(reply.content);
      }
      if (!live.has(worker)) return;
      idle.push(worker);
      pump();
    });
    const fail = (error: Error) => {
      if (!live.has(worker)) return;
      const job = busy.get(worker);
      retire(worker);
      if (job) {
        job.settle();
        // A thread over its heap limit was killed by what it was given (a bomb of a page or PDF).
        const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(
          outOfMemory
            ? new AppError('CONTENT_TOO_COMPLEX', `Processing the content of ${job.task.url} needed more memory than a content thread has`)
            : new AppError('INTERNAL', `Content worker stopped: ${error.message}`, { retryable: true }),
        );
      }
      if (!closed) pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    return worker;
  };

  /** Kills a document's thread when the process grows by more than its allowance while it runs. */
  const watchMemory = (worker: Worker, url: string): NodeJS.Timeout => {
    const ceiling = process.memoryUsage.rss() + (options.maxDocumentGrowthMb ?? 1024) * 1024 * 1024;
    const timer = setInterval(() => {
      if (process.memoryUsage.rss() <= ceiling) return;
      kill(worker, new AppError('CONTENT_TOO_COMPLEX', `Reading the document at ${url} needed more memory than a document may take`));
    }, options.memoryCheckMs ?? 50);
    timer.unref();
    return timer;
  };

  const run = (worker: Worker, job: Pending): void => {
    busy.set(worker, job);
    // A document (a long PDF) gets more time than a page.
    const budgetMs = job.task.document ? timeoutMs * DOCUMENT_TIMEOUT_FACTOR : timeoutMs;
    const timer = setTimeout(() => kill(worker, contentTimeout(job.task.url, budgetMs)), budgetMs);
    timer.unref();
    const onAbort = () => kill(worker, abortReason(job.signal));
    job.signal?.addEventListener('abort', onAbort, { once: true });
    const watch = job.task.document ? watchMemory(worker, job.task.url) : undefined;
    const previous = job.settle;
    job.settle = () => {
      if (watch) clearInterval(watch);
      clearTimeout(timer);
      job.signal?.removeEventListener('abort', onAbort);
      previous();
    };
    worker.postMessage(job.task);
  };

  const pump = (): void => {
    while (queue.length > 0) {
      const worker = idle.pop() ?? (live.size < size ? spawn() : undefined);
      if (!worker) return;
      run(worker, queue.shift()!);
    }
  };

  const submit = (task: Omit<ContentTask, 'id'>, signal: AbortSignal | undefined): Promise<PageContent> => {
    if (closed) return Promise.reject(new AppError('UNAVAILABLE', 'The content worker pool is closed'));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<PageContent>((resolve, reject) => {
      const job: Pending = { task: { id: nextId++, ...task }, signal, resolve, reject, settle: () => undefined };
      // While queued, an abort just drops the task.
      const onQueuedAbort = () => {
        const at = queue.indexOf(job);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(abortReason(signal));
      };
      signal?.addEventListener('abort', onQueuedAbort, { once: true });
      job.settle = () => signal?.removeEventListener('abort', onQueuedAbort);
      queue.push(job);
      pump();
    });
  };

  return {
    extract(html, url, request, extractOptions = {}) {
      return submit({ html, url, request }, extractOptions.signal);
    },
    extractDocument(bytes, type, url, request, extractOptions = {}) {
      return submit({ html: '', url, request, document: { bytes, type } }, extractOptions.signal);
    },
    threadIds() {
      return [...live].map((worker) => worker.threadId);
    },
    async close() {
      closed = true;
      const error = new AppError('UNAVAILABLE', 'The content worker pool is closed');
      for (const job of queue.splice(0)) {
        job.settle();
        job.reject(error);
      }
      for (const job of busy.values()) {
        job.settle();
        job.reject(error);
      }
      const workers = [...live];
      live.clear();
      busy.clear();
      idle.length = 0;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new AppError('TIMEOUT', 'Content extraction was cancelled');
}
