import { API_REFERENCE_CSP, apiReferenceHtml } from '../http/api-reference';
import { defineRoute } from '../http/route';

/** `/docs`: the API reference page, rendering `/openapi.json` with locally served Swagger UI. */
export const docsGet = defineRoute({
  method: 'get',
  paths: ['/docs'],
  summary: 'API reference page',
  tag: 'Service',
  auth: false,
  async handler({ res }) {
    res.status(200);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.send(apiReferenceHtml('Sitelens API reference'));
    return undefined;
  },
});
