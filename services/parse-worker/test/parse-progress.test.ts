import type { ParseJobProgress } from '@sitelens/contracts';
import { createLogger } from '@sitelens/telemetry';
import { createProgressReporter } from '../src/parse/progress-reporter';

const logger = createLogger({ level: 'silent', service: 'parse-progress-test' });

describe('createProgressReporter', () => {
  it('writes chunks one after the other, in call order, however slow each write is', async () => {
    const written: ParseJobProgress[] = [];
    let inFlight = 0;
    const sink = async (chunk: ParseJobProgress) => {
      inFlight += 1;
      expect(inFlight).toBe(1);
      // Earlier writes take longer (more turns of the event loop): order must not depend on speed.
      for (let turn = 6 - written.length; turn > 0; turn -= 1) await new Promise((resolve) => setImmediate(resolve));
      written.push(chunk);
      inFlight -= 1;
    };
    const progress = createProgressReporter(sink, logger);
    progress.stage('analyzing');
    progress.stage('crawling');
    progress.counts(1, 3);
    progress.counts(1, 3); // unchanged: not reported again
    progress.counts(3, 3);
    progress.stage('extracting');
    progress.page({ url: 'https://a.example/', data: { title: 'A' } });
    progress.stage('formatting');
    await progress.flush();
    expect(written).toEqual([
      { success: true, workflow_status: 'analyzing', pages_processed: 0, partial_results: [] },
      { success: true, workflow_status: 'crawling', pages_processed: 0, partial_results: [] },
      { success: true, workflow_status: 'crawling', pages_processed: 1, total_pages: 3, partial_results: [] },
      { success: true, workflow_status: 'crawling', pages_processed: 3, total_pages: 3, partial_results: [] },
      { success: true, workflow_status: 'extracting', pages_processed: 3, total_pages: 3, partial_results: [] },
      {
        success: true,
        workflow_status: 'extracting',
        pages_processed: 3,
        total_pages: 3,
        partial_results: [{ url: 'https://a.example/', data: { title: 'A' } }],
      },
      { success: true, workflow_status: 'formatting', pages_processed: 3, total_pages: 3, partial_results: [] },
    ]);
  });

  it('keeps going when a write fails', async () => {
    const written: string[] = [];
    const progress = createProgressReporter(async (chunk) => {
      if (chunk.workflow_status === 'crawling') throw new Error('redis went away');
      written.push(chunk.workflow_status);
    }, logger);
    progress.stage('analyzing');
    progress.stage('crawling');
    progress.stage('extracting');
    await expect(progress.flush()).resolves.toBeUndefined();
    expect(written).toEqual(['analyzing', 'extracting']);
  });
});
