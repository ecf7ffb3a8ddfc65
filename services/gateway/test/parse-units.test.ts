import { loadConfig } from '@sitelens/config';
import { AppError, parseJobTimeoutSeconds } from '@sitelens/contracts';
import { streamFramingOf } from '../src/jobs/chunk-stream';
import { parseError, parseJobFailure } from '../src/jobs/parse-errors';

describe('parseJobTimeoutSeconds', () => {
  const llm = (env: Record<string, string> = {}) => loadConfig(env).llm;

  it('covers collection plus every wave of model calls with all their attempts and waits', () => {
    // 10 pages / 4 at once = 3 waves; each 4 attempts of 30 s plus 8 s of backoff.
    expect(parseJobTimeoutSeconds(llm(), 10)).toBe(120 + 3 * (4 * 30 + 8));
    expect(parseJobTimeoutSeconds(llm({ PARSE_MAX_RETRIES: '0', PARSE_TIMEOUT: '5s', PARSE_CONCURRENCY: '10' }), 10)).toBe(
      120 + 1 * (5 + 1),
    );
  });

  it('grows with the pages asked for', () => {
    expect(parseJobTimeoutSeconds(llm(), 100)).toBeGreaterThan(parseJobTimeoutSeconds(llm(), 10));
  });
});

describe('streamFramingOf', () => {
  it.each([
    [undefined, 'sse'],
    ['*/*', 'sse'],
    ['text/event-stream', 'sse'],
    ['application/x-ndjson', 'ndjson'],
    ['application/ndjson', 'ndjson'],
    ['application/json, application/x-ndjson;q=0.9', 'ndjson'],
  ])('Accept %s -> %s', (accept, framing) => {
    expect(streamFramingOf(accept)).toBe(framing);
  });
});

describe('parse error bodies', () => {
  it('add workflow_status, pages_processed and execution_time, keeping the code and field', () => {
    const error = parseError(new AppError('INVALID_REQUEST', "Invalid field 'prompt': is required", { details: { field: 'prompt' } }), {
      pagesProcessed: 0,
      executionTimeMs: 3.4,
    });
    expect(error.status).toBe(400);
    expect(error.toBody()).toEqual({
      success: false,
      error: "Invalid field 'prompt': is required",
      code: 'INVALID_REQUEST',
      workflow_status: 'failed',
      pages_processed: 0,
      execution_time: 3,
      field: 'prompt',
    });
  });

  it('turn unknown errors into a generic 500', () => {
    const body = parseError(new TypeError('x is undefined'), { pagesProcessed: 2, executionTimeMs: 10 }).toBody();
    expect(body).toMatchObject({ code: 'INTERNAL', error: 'Internal server error', pages_processed: 2 });
  });

  it('rebuild a job failure with its code, hiding internal messages', () => {
    expect(
      parseJobFailure('LLM_ERROR: The language model failed (4 attempts): HTTP 429', { pagesProcessed: 3, executionTimeMs: 5 }).toBody(),
    ).toEqual({
      success: false,
      error: 'The language model failed (4 attempts): HTTP 429',
      code: 'LLM_ERROR',
      workflow_status: 'failed',
      pages_processed: 3,
      execution_time: 5,
    });
    const internal = parseJobFailure('INTERNAL: Cannot read properties of undefined', { pagesProcessed: 0, executionTimeMs: 0 });
    expect(internal.status).toBe(500);
    expect(internal.message).toBe('The parse failed because of an internal error');
  });
});
