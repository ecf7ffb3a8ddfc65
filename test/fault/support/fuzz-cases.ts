/**
 * Bad requests for the gateway's fuzz test, generated from its own route list: malformed and
 * wrongly typed JSON, odd and huge values, broken query strings and path segments, wrong methods
 * and content types, oversized bodies and heads. Every input a route validates is checked against
 * that route's schema first, so no case is a valid request (none waits on a worker or a page).
 * Deterministic for a seed.
 */
import { parse as parseQuery } from 'node:querystring';
import type { AnyRoute } from '@sitelens/gateway';

export interface FuzzCase {
  method: string;
  /** Path and query, already encoded (or deliberately mis-encoded). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the case is, for failure messages. */
  kind: string;
}

/** mulberry32: small, fast, good enough to pick cases. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'PURGE', 'FOO', 'M-SEARCH'];

const ODD_VALUES: unknown[] = [
  1e308,
  -1,
  0,
  -0,
  1.5,
  2 ** 53 + 1,
  -1e-300,
  '',
  ' ',
  'x'.repeat(5_000),
  '💩',
  '\u0000',
  '\ud800',
  'null',
  'true',
  '1e309',
  'not a url',
  'javascript:alert(1)',
  'ftp://127.0.0.1/',
  'http://',
  'http://[::1',
  'file:///etc/passwd',
  '//127.0.0.1',
  `http://127.0.0.1/${'a'.repeat(3_000)}`,
  true,
  false,
  [],
  {},
  [1, 2, 3],
  [[[[[]]]]],
  { $gt: '' },
  JSON.parse('{"__proto__":{"polluted":1}}'),
  Array.from({ length: 60 }, () => 'div'),
  ['::not-a-selector('],
  ['<script>'],
  'custom',
  'desktop ',
  'PNG',
  'networkidle0',
  'yearly',
  '* * * * * * *',
  { url: 1 },
  'DROP TABLE jobs;',
  '../../../../etc/passwd',
  '%00',
  '\r\nX-Injected: 1',
];

const MALFORMED_JSON = [
  '{',
  '}',
  '{"url":',
  "{'url': 'http://127.0.0.1/'}",
  '{"a":1,}',
  '{"url":"http://127.0.0.1/" "device":"mobile"}',
  'undefined',
  'NaN',
  '\u0000',
  '\ufeff{}',
  '{"url":"\\x41"}',
  '{"a":"\\u12"}',
  '[1,2',
  '"unterminated',
  '01',
  '{"a":01}',
  '--',
  'nul',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  `{"a":${'{"a":'.repeat(3_000)}1${'}'.repeat(3_001)}`,
];

const TOP_LEVEL_JSON = [
  'null',
  '1',
  '-1.5e400',
  '"string"',
  'true',
  '[]',
  '[{"url":"http://127.0.0.1/"}]',
  '{}',
  '{"__proto__":{"url":"x"}}',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  '*/*',
  'garbage///',
  'application/json; charset=utf-16',
  'application/json; charset=ebcdic',
  'application/merge-patch+json',
  'application/json, text/html',
  'application/json; boundary="',
  '',
];

const QUERY_VALUES = [
  '',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%00',
  '-1',
  '0',
  '61',
  '1e3',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  ' 5',
  'true',
  'yes',
  '[]',
  '{}',
  'null',
  '%F0%9F%92%A9',
  'a'.repeat(3_000),
  'javascript:alert(1)',
  'http%3A%2F%2F',
  'ftp%3A%2F%2F127.0.0.1%2F',
  '..%2F..%2F',
];

const SEGMENTS = [
  '%E0%A4%A',
  '%',
  '%00',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..',
  '.',
  'x'.repeat(300),
  '%F0%9F%92%A9',
  '%20%20',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'templates%2F..',
  ';',
  '%3Cscript%3E',
];

export interface Generator {
  next(): FuzzCase;
}

/** Cases spread evenly over every path of every route (aliases included), then over kinds. */
export function createGenerator(routes: readonly AnyRoute[], seed: number, authHeader?: () => string | undefined): Generator {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const targets = routes.flatMap((route) => route.paths.map((path) => ({ route, path })));
  targets.push(
    { route: undefined as unknown as AnyRoute, path: '/admin/queues/api/queues' },
    { route: undefined as unknown as AnyRoute, path: '/no/such/route' },
  );
  let turn = 0;
  const uuid = () =>
    Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16))
      .join('')
      .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

  const fieldNames = (route: AnyRoute | undefined, where: 'body' | 'query'): string[] => {
    const schema = route?.[where] as { shape?: Record<string, unknown>; def?: { shape?: Record<string, unknown> } } | undefined;
    return Object.keys(schema?.shape ?? schema?.def?.shape ?? {});
  };

  const fillPath = (path: string): string =>
    path
      .replace(/:\w+/g, () => (random() < 0.3 ? uuid() : pick(SEGMENTS)))
      .replace(/\*\w+/g, () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(SEGMENTS)).join('/'));

  const badQuery = (route: AnyRoute | undefined): string => {
    const names = [...fieldNames(route, 'query'), 'x', 'job_id[]', 'a[b]', ''];
    const pairs = Array.from({ length: 1 + Math.floor(random() * 4) }, () => `${pick(names)}=${pick(QUERY_VALUES)}`);
    if (random() < 0.2) pairs.push(...pairs); // repeated keys become arrays
    return `?${pairs.join('&')}`;
  };

  const oddObject = (route: AnyRoute | undefined): Record<string, unknown> => {
    const names = [...fieldNames(route, 'body'), 'unknown_field'];
    const object: Record<string, unknown> = {};
    for (const name of names) if (random() < 0.6) object[name] = pick(ODD_VALUES);
    return object;
  };

  const badBody = (route: AnyRoute | undefined): { text: string; kind: string } => {
    const roll = random();
    if (roll < 0.3) return { text: pick(MALFORMED_JSON), kind: 'malformed json' };
    if (roll < 0.45) return { text: pick(TOP_LEVEL_JSON), kind: 'wrong top-level json' };
    return { text: JSON.stringify(oddObject(route)), kind: 'odd field values' };
  };

  /** Whether the route would accept these inputs (then the case is not a bad request). */
  const accepted = (route: AnyRoute | undefined, method: string, query: string, body: string | undefined, contentType: string): boolean => {
    if (!route || (method !== route.method.toUpperCase() && !(method === 'HEAD' && route.method === 'get'))) return false;
    if (!route.query && !route.body) return false;
    if (route.query && !route.query.safeParse(parseQuery(query.replace(/^\?/, ''))).success) return false;
    if (route.body) {
      if (!/^application\/([\w.+-]*\+)?json\b/.test(contentType) || body === undefined) return false;
      try {
        const parsed: unknown = JSON.parse(body);
        const withoutNulls =
          typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
            ? Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== null))
            : parsed;
        if (!route.body.safeParse(withoutNulls).success) return false;
      } catch {
        return false;
      }
    }
    return true;
  };

  const build = (): FuzzCase => {
    const { route, path } = targets[turn++ % targets.length];
    const ownMethod = route?.method.toUpperCase() ?? 'GET';
    const kindRoll = random();
    const method = kindRoll < 0.15 ? pick(METHODS) : ownMethod;
    let kind = method === ownMethod ? 'right method' : `wrong method ${method}`;
    const headers: Record<string, string> = {};
    let target = fillPath(path);
    let query = '';
    if (route?.query || random() < 0.3) query = badQuery(route);
    if (random() < 0.02) query = `?x=${'q'.repeat(20_000)}`; // head larger than the server takes
    let body: string | undefined;
    let contentType = 'application/json';
    if (method !== 'GET' && method !== 'HEAD' && (route?.body || random() < 0.3)) {
      const made = badBody(route);
      body = made.text;
      kind += `, ${made.kind}`;
      if (random() < 0.2) contentType = pick(CONTENT_TYPES);
      if (random() < 0.03) body = JSON.stringify({ url: 'http://127.0.0.1/', pad: 'p'.repeat(1_200_000) }); // over the 1 MB limit
      if (random() < 0.03) headers['content-encoding'] = pick(['gzip', 'deflate', 'br', 'x-unknown']);
      if (contentType) headers['content-type'] = contentType;
    }
    if (accepted(route, method, query, body, contentType)) return build();
    // Raw spaces and non-ASCII cannot go on the request line at all: send them percent-encoded.
    target = `${target}${query}`.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
    if (random() < 0.1) headers['x-request-id'] = pick(['', ' ', 'a'.repeat(500), '../../x', '\u00e9t\u00e9']);
    if (random() < 0.1) headers.accept = pick(['application/x-ndjson', 'text/event-stream', 'image/png', '*/*;q=abc']);
    const auth = random() < 0.15 ? pick(['Bearer', 'Bearer ', 'Basic !!!', `Bearer ${'k'.repeat(5_000)}`, 'Token x']) : authHeader?.();
    if (auth !== undefined) headers.authorization = auth;
    return { method, target, headers, body: body === undefined ? undefined : Buffer.from(body), kind };
  };

  return { next: build };
}
