import { MAP_LIMITS, SCRAPE_LIMITS, type MapResponse, type ScrapeResponse } from '@sitelens/contracts';
import { crawlCreate } from '../routes/crawl.create';
import { jobsGet } from '../routes/jobs.get';
import { mapCreate } from '../routes/map.create';
import { parseCreate } from '../routes/parse.create';
import { scrapePost } from '../routes/scrape.get';
import { screenshotTool } from './screenshot-tool';
import { callRoute, jsonText, toolResult, type AnyMcpTool, type McpTool } from './tool';

const scrapeTool: McpTool = {
  name: 'scrape',
  title: 'Read a web page',
  description:
    "Read one web page: its main content as markdown (default) or text, its HTML, or its links (format: 'links'). " +
    'PDF and DOCX URLs are read as documents. The page is fetched, and rendered in Chromium only when it needs JavaScript ' +
    '(render_js forces either way; wait_for_selectors waits for elements). Usually under a second fetched, a few seconds ' +
    `rendered. Costs one request; answers are cached ${SCRAPE_LIMITS.cacheSeconds / 60} minutes (fresh: true skips the cache). ` +
    'Use this when you have the URL; map to find URLs, crawl for many pages, parse to extract data with the model.',
  route: scrapePost,
  input: 'body',
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ args }, ctx) {
    const page = (await callRoute(scrapePost, { body: args }, ctx)).body as ScrapeResponse;
    return toolResult(page, page.content || page.links.join('\n'));
  },
};

const mapTool: McpTool = {
  name: 'map',
  title: "List a site's URLs",
  description:
    "List a site's URLs quickly, without their content: its sitemaps and a link walk (no rendering), deduplicated; search " +
    `ranks URLs whose path or title match first. Answers within ~${MAP_LIMITS.timeoutSeconds} s. Costs one request. Use it to ` +
    'find the right page before scrape, or to choose what to crawl.',
  route: mapCreate,
  input: 'body',
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ args }, ctx) {
    const map = (await callRoute(mapCreate, { body: args }, ctx)).body as MapResponse;
    return toolResult(map, map.links.join('\n'));
  },
};

const crawlTool: McpTool = {
  name: 'crawl',
  title: 'Start a crawl',
  description:
    'Start crawling a site from url: breadth-first to depth, at most link_limit pages, same host unless include_subdomains, ' +
    'robots.txt obeyed; every page read as markdown. Returns a job id at once; follow it with crawl_status (a crawl takes ' +
    'seconds to minutes). Costs one request, and its pages count against the plan. Use scrape for one page, map for URLs only.',
  route: crawlCreate,
  input: 'body',
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ args }, ctx) {
    const { body } = await callRoute(crawlCreate, { body: args }, ctx);
    const jobId = (body as { job_id: string }).job_id;
    return toolResult(body, `Crawl started: job ${jobId}. Call crawl_status with {"job_id": "${jobId}"} to follow it.`);
  },
};

const crawlStatusTool: McpTool = {
  name: 'crawl_status',
  title: 'Crawl status and pages',
  description:
    "A crawl's state by job_id (any job's, in fact): processing with page counts so far, or completed with every page's " +
    'content, or failed with the reason. Costs one request; poll every few seconds, not faster.',
  route: jobsGet,
  input: 'params',
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ args }, ctx) {
    const { body } = await callRoute(jobsGet, { params: args }, ctx);
    // Compact: a finished crawl's pages are in the structured content too.
    return toolResult(body, JSON.stringify(body));
  },
};

const parseTool: McpTool = {
  name: 'parse',
  title: 'Extract data from the web with a prompt',
  description:
    'Say in plain words what to get from which URL(s) ("Get every product name and price from https://shop.example/"): the ' +
    'page is scraped, or the site crawled when the prompt asks for it, and the language model extracts the data, following ' +
    'schema (a JSON Schema) when given; output_format json (default), csv or markdown. Waits for the result: seconds for ' +
    'one page, up to minutes for a crawl. Costs one request, model tokens and up to max_pages pages. When you only need to ' +
    'read a page yourself, scrape is cheaper.',
  route: parseCreate,
  input: 'body',
  omit: ['stream', 'async'],
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ args }, ctx) {
    const { body } = await callRoute(parseCreate, { body: args }, ctx);
    return toolResult(body, jsonText((body as { data: unknown }).data));
  },
};

/** Every tool the gateway's MCP endpoint offers, in the order they are listed. */
export const MCP_TOOLS: readonly AnyMcpTool[] = [scrapeTool, screenshotTool, mapTool, crawlTool, crawlStatusTool, parseTool];
