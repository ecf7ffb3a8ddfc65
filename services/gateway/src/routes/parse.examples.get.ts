import { parseExamples } from '@sitelens/contracts';
import { defineRoute } from '../http/route';

export const parseExamplesGet = defineRoute({
  method: 'get',
  paths: ['/v1/parse/examples', '/api/v1/parse/examples'],
  summary: 'Example parse requests (blog_crawl_example, product_scrape_example), each a prompt and a JSON schema',
  tag: 'Parse',
  async handler() {
    return { body: { success: true, ...parseExamples() } };
  },
});
