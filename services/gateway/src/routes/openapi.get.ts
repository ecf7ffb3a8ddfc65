import { buildOpenApi } from '../http/openapi';
import { defineRoute, type AnyRoute } from '../http/route';

/** `/openapi.json`, generated once from the route list it documents. */
export function openapiGet(routes: readonly AnyRoute[]) {
  let document: unknown;
  return defineRoute({
    method: 'get',
    paths: ['/openapi.json'],
    summary: 'OpenAPI 3.1 document of this API',
    tag: 'Service',
    auth: false,
    async handler({ deps }) {
      document ??= buildOpenApi(routes, { version: deps.version, hostedAuth: deps.config.mode === 'hosted' });
      return { body: document };
    },
  });
}
