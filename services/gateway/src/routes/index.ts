import type { AnyRoute } from '../http/route';
import { docsAssetsGet } from './docs-assets.get';
import { docsGet } from './docs.get';
import { filesGet } from './files.get';
import { healthGet } from './health.get';
import { jobsGet } from './jobs.get';
import { metricsGet } from './metrics.get';
import { openapiGet } from './openapi.get';
import { screenshotsCreate } from './screenshots.create';
import { screenshotsGet } from './screenshots.get';

/** Every API route, in one list: mounted by the app and documented by the OpenAPI generator. */
export const API_ROUTES: readonly AnyRoute[] = [
  screenshotsCreate,
  screenshotsGet,
  jobsGet,
  healthGet,
  filesGet,
];

export function allRoutes(): AnyRoute[] {
  // Operator routes, outside the API document: metrics and the reference page itself.
  return [...API_ROUTES, openapiGet(API_ROUTES), docsGet, docsAssetsGet, metricsGet];
}
