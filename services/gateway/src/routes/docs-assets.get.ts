import { NotFound } from '@sitelens/contracts';
import { API_REFERENCE_ASSETS, API_REFERENCE_INIT_JS, API_REFERENCE_INIT_SCRIPT, swaggerAsset } from '../http/api-reference';
import { defineRoute } from '../http/route';

/** The scripts, styles and icons of the `/docs` page, from the swagger-ui-dist package. */
export const docsAssetsGet = defineRoute({
  method: 'get',
  paths: [`${API_REFERENCE_ASSETS}/:file`],
  summary: 'API reference page assets',
  tag: 'Service',
  auth: false,
  async handler({ req, res }) {
    const name = String(req.params.file);
    if (name === API_REFERENCE_INIT_SCRIPT) {
      res.status(200).setHeader('Content-Type', 'text/javascript; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.send(API_REFERENCE_INIT_JS);
      return undefined;
    }
    const asset = swaggerAsset(name);
    if (!asset) throw new NotFound('No such file');
    await new Promise<void>((resolve, reject) => {
      res.sendFile(asset.name, { root: asset.root, headers: { 'Content-Type': asset.contentType }, maxAge: '1d' }, (error) =>
        error && !res.headersSent ? reject(error) : resolve(),
      );
    });
    return undefined;
  },
});
