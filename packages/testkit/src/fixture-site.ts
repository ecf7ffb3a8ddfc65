/**
 * A local website for tests: static files from a folder plus programmable routes (slow pages,
 * redirects, status codes). Listens on 127.0.0.1 at a free port; never the internet.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export type FixtureHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FixtureSite {
  origin: string;
  port: number;
  /** Requests seen, by path, in order. */
  hits: string[];
  route(pathname: string, handler: FixtureHandler): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'application/javascript',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

export async function startFixtureSite(options: { root?: string; host?: string } = {}): Promise<FixtureSite> {
  const routes = new Map<string, FixtureHandler>();
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    hits.push(url.pathname);
    const handler = routes.get(url.pathname);
    if (handler) {
      Promise.resolve(handler(req, res)).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    if (!options.root) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    const relative = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
    const file = path.join(options.root, path.normalize(relative).replace(/^(\.\.[/\\])+/, ''));
    readFile(file)
      .then((body) => {
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      })
      .catch(() => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    hits,
    route: (pathname, handler) => routes.set(pathname, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
