import path from 'node:path';

/**
 * The API reference page at `/docs`: Swagger UI from the swagger-ui-dist package served by the
 * gateway itself (no CDN, so it works offline and under a strict Content-Security-Policy),
 * rendering `/openapi.json`.
 */
export const API_REFERENCE_ASSETS = '/docs/assets';

/** Our own start-up script; kept out of the page so no inline script is needed. */
export const API_REFERENCE_INIT_SCRIPT = 'init.js';

/** The swagger-ui-dist files the page loads; nothing else in the package is served. */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

export const API_REFERENCE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Swagger UI sets inline styles and uses data: images for its icons.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** BaseLayout has no spec-URL bar, so the page only ever renders this service's document. */
export const API_REFERENCE_INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    layout: 'BaseLayout',
    presets: [SwaggerUIBundle.presets.apis],
  });
});
`;

export function apiReferenceHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="icon" type="image/png" sizes="32x32" href="${API_REFERENCE_ASSETS}/favicon-32x32.png">
  <link rel="icon" type="image/png" sizes="16x16" href="${API_REFERENCE_ASSETS}/favicon-16x16.png">
  <link rel="stylesheet" href="${API_REFERENCE_ASSETS}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${API_REFERENCE_ASSETS}/swagger-ui-bundle.js"></script>
  <script src="${API_REFERENCE_ASSETS}/${API_REFERENCE_INIT_SCRIPT}"></script>
</body>
</html>
`;
}

/**
 * Where a served swagger-ui-dist file lies (its directory as `root`, as `res.sendFile` wants it:
 * pnpm's `.pnpm` store path would otherwise trip its dotfile rule), or undefined for any other name.
 */
export function swaggerAsset(name: string): { root: string; name: string; contentType: string } | undefined {
  if (!Object.hasOwn(SWAGGER_FILES, name)) return undefined;
  return { root: path.dirname(require.resolve('swagger-ui-dist/package.json')), name, contentType: SWAGGER_FILES[name] };
}
