import type { AnyRoute } from '../http/route';
import { batchCreate } from './batch.create';
import { batchGet } from './batch.get';
import { crawlCreate } from './crawl.create';
import { crawlDelete } from './crawl.delete';
import { docsAssetsGet } from './docs-assets.get';
import { docsGet } from './docs.get';
import { filesGet } from './files.get';
import { healthGet } from './health.get';
import { jobsGet } from './jobs.get';
import { mapCreate } from './map.create';
import { mcpGet } from './mcp.get';
import { mcpPost } from './mcp.post';
import { MCP_TOOLS } from '../mcp/tools';
import { metricsGet } from './metrics.get';
import { openapiGet } from './openapi.get';
import { parseCreate } from './parse.create';
import { parseExamplesGet } from './parse.examples.get';
import { parseGet } from './parse.get';
import { parseLookupGet } from './parse.lookup.get';
import { parseTemplatesGet } from './parse.templates.get';
import { scrapeGet, scrapePost } from './scrape.get';
import { screenshotsCreate } from './screenshots.create';
import { screenshotsGet } from './screenshots.get';
import { watchCheck } from './watch.check';
import { watchConfirmGet } from './watch.confirm.get';
import { watchCreate } from './watch.create';
import { watchDelete } from './watch.delete';
import { watchGet } from './watch.get';
import { watchList } from './watch.list';
import { watchPause } from './watch.pause';
import { watchResume } from './watch.resume';

/** Every API route, in one list: mounted by the app and documented by the OpenAPI generator. */
export const API_ROUTES: readonly AnyRoute[] = [
  screenshotsCreate,
  screenshotsGet,
  scrapeGet,
  scrapePost,
  crawlCreate,
  crawlDelete,
  mapCreate,
  batchCreate,
  batchGet,
  parseCreate,
  // The literal paths before /v1/parse/:job_id, which would take them for job ids.
  parseTemplatesGet,
  parseExamplesGet,
  parseGet,
  parseLookupGet,
  watchCreate,
  watchList,
  // Before /v1/watch/:id, which would take "confirm" for a watch id.
  watchConfirmGet,
  watchGet,
  watchDelete,
  watchPause,
  watchResume,
  watchCheck,
  jobsGet,
  healthGet,
  filesGet,
];

/** Every route of the API port; `metrics: false` leaves /metrics out (hosted mode: ops port). */
export function allRoutes(options: { metrics?: boolean } = {}): AnyRoute[] {
  // Operator routes, outside the API document: metrics and the reference page itself.
  // The MCP endpoint: the same routes again, as tools for AI agents (JSON-RPC, outside the API document).
  const operator = [
    openapiGet(API_ROUTES),
    docsGet,
    docsAssetsGet,
    mcpPost(MCP_TOOLS),
    mcpGet,
    ...(options.metrics === false ? [] : [metricsGet]),
  ];
  return [...API_ROUTES, ...operator];
}
