/**
 * A hostile page and the internal service it goes after, for the hosted-mode egress tests.
 *
 * - The "attacker" site listens on 127.0.0.2 (tests list it in EGRESS_ALLOW, standing in for a
 *   public host). Its /attack page tries every way out a page has: subresources, iframes, fetch,
 *   WebSocket, dedicated/shared/service workers, redirects, an IP literal, new windows and a form
 *   POST to a new window. Each vector uses its own name `<vector>.internal.test`, so the proxy's
 *   refusals say which vectors were tried. When every vector it can observe has settled, the page
 *   shows `#done` (capture with wait_for_selector '#done').
 * - The "internal" service listens on 127.0.0.3 at the same port (blocked loopback) and counts every
 *   TCP connection and every request's Host header.
 * - `rebind.test` answers 127.0.0.2 until /rebind has been served, then 127.0.0.3: the name changes
 *   its answer after the check, as a DNS-rebinding server does.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

export const ATTACKER_HOST = '127.0.0.2';
export const INTERNAL_HOST = '127.0.0.3';

/** Vectors whose attempt the page can observe settling; each must be refused by name at the proxy. */
export const OBSERVED_VECTORS = ['img', 'iframe', 'fetch', 'ws', 'worker', 'shared', 'sw', 'redirect', 'css', 'xhr'] as const;

export interface InternalService {
  /** TCP connections accepted, whatever came over them. */
  connections(): number;
  /** Host headers of the HTTP requests (and WebSocket upgrades) received. */
  hosts: string[];
}

export interface EgressAttack {
  port: number;
  attackUrl: string;
  rebindUrl: string;
  popupUrl: string;
  /** Redirects the page itself to an internal name. */
  redirectUrl: string;
  /** A page whose script sends the tab to an internal name before its load event. */
  scriptRedirectUrl: string;
  internal: InternalService;
  /** The resolver the proxy is given: `*.internal.test` is internal, `rebind.test` rebinds. */
  resolve(hostname: string): Promise<Array<{ address: string; family: 4 }>>;
  /** Chromium resolver rules giving the same names without a proxy (for the control run). */
  hostRules: string;
  close(): Promise<void>;
}

function attackPage(port: number): string {
  const at = (vector: string, path = '/') => `http://${vector}.internal.test:${port}${path}`;
  return `<!doctype html><html><head><title>attack</title></head>
<body style="margin:0;background:#fff"><h1>Nothing to see</h1>
<script>
const settled = [];
// Elements are made here, listeners first, so no load or error can fire before it is heard.
const element = (tag, attrs, parent) => new Promise((r) => {
  const el = document.createElement(tag);
  el.addEventListener('load', r);
  el.addEventListener('error', r);
  Object.assign(el, attrs);
  parent.appendChild(el);
});
settled.push(element('link', { rel: 'stylesheet', href: ${JSON.stringify(at('css', '/x.css'))} }, document.head));
settled.push(element('img', { src: ${JSON.stringify(at('img', '/x.png'))} }, document.body));
settled.push(element('img', { src: '/redirect-inside' }, document.body));
settled.push(element('iframe', { src: ${JSON.stringify(at('iframe'))} }, document.body));
settled.push(fetch(${JSON.stringify(at('fetch'))}, { mode: 'no-cors' }).catch(() => undefined));
settled.push(fetch('http://${INTERNAL_HOST}:${port}/literal', { mode: 'no-cors' }).catch(() => undefined));
settled.push(new Promise((r) => { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(at('xhr'))}); x.onloadend = r; x.send(); }));
settled.push(new Promise((r) => { const ws = new WebSocket(${JSON.stringify(`ws://ws.internal.test:${port}/`)}); ws.onopen = () => { ws.close(); r(); }; ws.onerror = r; ws.onclose = r; }));
settled.push(new Promise((r) => { const w = new Worker('/worker.js'); w.onmessage = r; w.onerror = r; }));
settled.push(new Promise((r) => { const s = new SharedWorker('/shared.js'); s.port.onmessage = r; s.onerror = r; s.port.start(); }));
settled.push(navigator.serviceWorker.register('/sw.js').then((reg) => new Promise((r) => {
  const w = reg.installing || reg.waiting || reg.active;
  if (!w || w.state === 'installed' || w.state === 'activated' || w.state === 'redundant') return r();
  w.addEventListener('statechange', () => { if (w.state !== 'installing') r(); });
})).catch(() => undefined));
window.open(${JSON.stringify(at('popup'))});
const form = document.createElement('form');
form.method = 'post'; form.target = '_blank'; form.action = ${JSON.stringify(at('form'))};
document.body.appendChild(form); form.submit();
// Each vector gets 10 s to settle (a loaded machine can be slow to fail a worker or a service
// worker); what the tests assert is that the proxy refused every one of them.
const bounded = (p) => Promise.race([p, new Promise((r) => setTimeout(r, 10000))]);
Promise.all(settled.map(bounded)).then(() => document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>'));
</script></body></html>`;
}

const scripts = (port: number): Record<string, string> => ({
  '/worker.js': `fetch('http://worker.internal.test:${port}/').catch(() => undefined).then(() => postMessage('done'));`,
  '/shared.js': `onconnect = (e) => { const p = e.ports[0]; fetch('http://shared.internal.test:${port}/').catch(() => undefined).then(() => p.postMessage('done')); };`,
  '/sw.js': `self.addEventListener('install', (e) => e.waitUntil(fetch('http://sw.internal.test:${port}/').catch(() => undefined)));`,
});

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

export async function startEgressAttack(): Promise<EgressAttack> {
  let rebound = false;
  let port = 0;
  const attacker = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const script = scripts(port)[path];
    if (script) return void res.writeHead(200, { 'content-type': 'application/javascript' }).end(script);
    if (path === '/attack') return void res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(port));
    if (path === '/go-inside') {
      return void res.writeHead(302, { location: `http://redirect-page.internal.test:${port}/` }).end();
    }
    if (path === '/script-inside') {
      const page = `<!doctype html><body><script>location.href = 'http://script-page.internal.test:${port}/';</script></body>`;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (path === '/redirect-inside') {
      return void res.writeHead(302, { location: `http://redirect.internal.test:${port}/` }).end();
    }
    if (path === '/rebind') {
      rebound = true;
      const page = `<!doctype html><body><p id="secret">waiting</p><script>
fetch('/secret').then((r) => r.text()).then((t) => t, () => 'refused').then((t) => {
  document.getElementById('secret').textContent = t; document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>'); });
</script></body>`;
      return void res.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end(page);
    }
    if (path === '/popups') {
      const page = `<!doctype html><body><p>popups</p><script>
for (let i = 0; i < 150; i++) window.open('/attack?' + i);
document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>');
</script></body>`;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (path === '/secret') return void res.writeHead(200).end('public, not secret');
    res.writeHead(404).end();
  });
  const hosts: string[] = [];
  let connections = 0;
  const internal = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('INTERNAL SECRET');
  });
  internal.on('connection', () => (connections += 1));
  internal.on('upgrade', (req, socket: Socket) => {
    hosts.push(req.headers.host ?? '');
    socket.destroy();
  });

  port = await listen(attacker, ATTACKER_HOST, 0);
  await listen(internal, INTERNAL_HOST, port);
  return {
    port,
    attackUrl: `http://${ATTACKER_HOST}:${port}/attack`,
    rebindUrl: `http://rebind.test:${port}/rebind`,
    popupUrl: `http://${ATTACKER_HOST}:${port}/popups`,
    redirectUrl: `http://${ATTACKER_HOST}:${port}/go-inside`,
    scriptRedirectUrl: `http://${ATTACKER_HOST}:${port}/script-inside`,
    internal: { connections: () => connections, hosts },
    async resolve(hostname) {
      if (hostname.endsWith('.internal.test')) return [{ address: INTERNAL_HOST, family: 4 }];
      if (hostname === 'rebind.test') return [{ address: rebound ? INTERNAL_HOST : ATTACKER_HOST, family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    },
    hostRules: `MAP *.internal.test ${INTERNAL_HOST}, MAP rebind.test ${ATTACKER_HOST}`,
    async close() {
      for (const server of [attacker, internal]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
