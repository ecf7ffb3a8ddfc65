import type { ParseWorkerContext } from '../context';
import type { ParseJobHandlers } from './job-handler';
import { createBatchHandler } from './batch';
import { createCrawlHandler } from './crawl';
import { createMapHandler } from './map';
import { createParseHandler } from './parse';
import { createScrapeHandler } from './scrape';
import { createWatchHandler } from './watch';

/**
 * The parse queue's job kinds and their handlers. Each kind lives in its own file in this folder
 * and is registered here by job name.
 */
export function createParseHandlers(context: ParseWorkerContext): ParseJobHandlers {
  return {
    parse: createParseHandler(context),
    scrape: createScrapeHandler(context),
    crawl: createCrawlHandler(context),
    watch: createWatchHandler(context),
    map: createMapHandler(context),
    batch: createBatchHandler(context),
  };
}
