import type { Response } from 'express';
import { Unavailable, followDeadline, type ParseJobProgress, type ParseJobResult } from '@sitelens/contracts';
import { loadJobResult } from '@sitelens/storage';
import type { Logger } from '@sitelens/telemetry';
import type { GatewayDeps } from '../deps';
import type { RouteResult } from '../http/route';
import { openChunkStream, type StreamFraming } from './chunk-stream';
import { parseError, parseJobFailure, type ParseFacts } from './parse-errors';
import { cancelParse, enqueueParse, type ParseJobSpec } from './parse-job';
import { followParse, type ParseOutcome, type ParseWatch } from './parse-follow';

/** One parse request in flight at the gateway. */
export interface ParseRun {
  deps: GatewayDeps;
  log: Logger;
  res: Response;
  spec: ParseJobSpec;
  /** When the request arrived: execution_time is the client's wait. */
  startedAt: number;
}

/** The job's result (saved in the blob store by the worker) as the final answer. */
async function finalBody(run: ParseRun, returned: ParseJobResult) {
  const result = await loadJobResult<ParseJobResult>(run.deps.store, returned);
  return { ...result, execution_time: Date.now() - run.startedAt, job_id: run.spec.jobId };
}

function facts(run: ParseRun, pagesProcessed: number): ParseFacts {
  return { pagesProcessed, executionTimeMs: Date.now() - run.startedAt };
}

/** A failed job's error body; it names the job, which may still be followed or looked up. */
function failure(run: ParseRun, outcome: Extract<ParseOutcome, { ok: false }>, pagesProcessed: number) {
  return parseJobFailure(outcome.failedReason, { ...facts(run, pagesProcessed), jobId: run.spec.jobId });
}

/**
 * A gateway shutting down stops waiting (so it can close within its deadline) but leaves the job
 * running: the client is told where to follow it.
 */
function followLater(run: ParseRun): string {
  return `UNAVAILABLE: The service is restarting; the parse goes on: follow it at GET /v1/parse/${run.spec.jobId}`;
}

/** Watches the job, then adds it; a client that goes away before the end cancels the work. */
async function start(run: ParseRun, onProgress: (chunk: ParseJobProgress) => void): Promise<ParseWatch> {
  const { deps, res, spec } = run;
  if (deps.stopping.aborted) throw new Unavailable('The service is restarting; send the request again');
  const watch = followParse(deps, spec.jobId, { onProgress, waitMs: followDeadline('parse', spec.payload) - Date.now() });
  const onStopping = () => watch.stop(followLater(run));
  deps.stopping.addEventListener('abort', onStopping, { once: true });
  void watch.done.then(() => deps.stopping.removeEventListener('abort', onStopping));
  res.once('close', () => {
    if (res.writableFinished) return;
    run.log.info({ jobId: spec.jobId }, 'parse client disconnected; cancelling');
    watch.stop();
    void cancelParse(deps, spec.jobId);
  });
  try {
    await enqueueParse(deps, spec);
  } catch (error) {
    watch.stop();
    throw error;
  }
  return watch;
}

/** `stream: false`: waits for the job and answers its result, or its error with its status. */
export async function awaitParse(run: ParseRun): Promise<RouteResult> {
  let pagesProcessed = 0;
  const watch = await start(run, (chunk) => {
    pagesProcessed = chunk.pages_processed;
  });
  const outcome = await watch.done;
  if (outcome.ok) return { status: 200, body: await finalBody(run, outcome.result) };
  if (outcome.failedReason.startsWith('JOB_TIMEOUT')) void cancelParse(run.deps, run.spec.jobId);
  throw failure(run, outcome, pagesProcessed);
}

/**
 * `stream: true`: relays each progress chunk as it is written, then the full response as the last
 * chunk; a failure ends the stream with the error body. Problems before the job is queued (Redis
 * down) still get a plain error response with their status.
 */
export async function streamParse(run: ParseRun, framing: StreamFraming): Promise<undefined> {
  // Chunks that arrive before the stream opens are held, then relayed live.
  const early: ParseJobProgress[] = [];
  let relay = (chunk: ParseJobProgress): void => {
    early.push(chunk);
  };
  let pagesProcessed = 0;
  const watch = await start(run, (chunk) => {
    pagesProcessed = chunk.pages_processed;
    relay(chunk);
  });
  const stream = openChunkStream(run.res, framing);
  for (const chunk of early) stream.write(chunk);
  relay = (chunk) => stream.write(chunk);
  try {
    const outcome = await watch.done;
    if (outcome.ok) stream.end(await finalBody(run, outcome.result));
    else stream.end(failure(run, outcome, pagesProcessed).toBody());
  } catch (error) {
    run.log.error({ err: error, jobId: run.spec.jobId }, 'parse stream failed');
    stream.end(parseError(error, facts(run, pagesProcessed)).toBody());
  }
  return undefined;
}

/** `async: true`: 202 with the job id at once; `GET /v1/parse/<job_id>` follows it. */
export async function queueParse(run: ParseRun, origin: string): Promise<RouteResult> {
  await enqueueParse(run.deps, run.spec);
  const jobId = run.spec.jobId;
  return {
    status: 202,
    body: { success: true, job_id: jobId, type: 'parse', status: 'processing', status_url: `${origin}/v1/parse/${jobId}` },
  };
}
