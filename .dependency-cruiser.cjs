/**
 * Import rules checked by `npm run lint` (dependency-cruiser): no cycles, type-only imports
 * included, and the layering of docs/DEVELOPING.md. Workspace packages resolve to their sources
 * (the `source` field of each package.json), so the check needs no build.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle, even through `import type`, ties modules together that should each stand alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'services-apart',
      severity: 'error',
      comment: 'Services depend on packages, never on each other.',
      from: { path: '^services/([^/]+)/src/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'packages-below-services',
      severity: 'error',
      comment: 'Packages never import a service.',
      from: { path: '^packages/[^/]+/src/' },
      to: { path: '^services/' },
    },
    {
      name: 'gateway-stays-light',
      severity: 'error',
      comment: 'The gateway never opens a page, fetches a site or calls the model: no browser, web or extract.',
      from: { path: '^services/gateway/src/' },
      to: { path: '^packages/(browser|web|extract)/' },
    },
    {
      name: 'screenshot-worker-stays-light',
      severity: 'error',
      comment: 'The screenshot worker takes screenshots: no page parsing (web) and no model (extract).',
      from: { path: '^services/screenshot-worker/src/' },
      to: { path: '^packages/(web|extract)/' },
    },
    {
      name: 'no-undeclared-dependency',
      severity: 'error',
      comment: "A package imports only what its own package.json declares (the root's devDependencies serve tests and scripts).",
      from: { path: '^(packages|services)/[^/]+/src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
  ],
  options: {
    exclude: { path: '(^|/)dist/' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle through `import type` is still a cycle.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.d.ts', '.js', '.json'],
      mainFields: ['source', 'main', 'types'],
    },
  },
};
