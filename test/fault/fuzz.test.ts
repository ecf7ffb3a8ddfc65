/**
 * Fault: 1,000 fuzzed bad requests (support/fuzz-cases.ts) to every route of a gateway process,
 * in local mode and in hosted mode. None may get a 5xx, a hang or a dropped connection, and
 * every 4xx must carry the JSON error body `{success: false, error, code}`. The gateways stay
 * healthy throughout. Failures name the seed: `FUZZ_SEED=<n>` replays the same cases.
 */
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allRoutes } from '@sitelens/gateway';
import { sampleValue } from '@sitelens/testkit';
import { createGenerator, seededRandom, type FuzzCase } from './support/fuzz-cases';
import { dropPrefix, stackEnv, startGatewayProcess, type RunningGateway } from './support/stack';

const TOTAL = 1_000;
const HOSTED_SHARE = 0.4;
const PARALLEL = 8;
const ANSWER_TIMEOUT_MS = 10_000;
const API_KEY = 'sk_fuzz_enterprise';

interface Answer {
  status?: number;
  contentType?: string;
  text?: string;
  error?: string;
}

function send(port: number, c: FuzzCase): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: c.method,
      path: c.target,
      headers: c.headers,
      agent: false,
      timeout: ANSWER_TIMEOUT_MS,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < 65_536) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode, contentType: res.headers['content-type'], text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (error) => resolve({ status: res.statusCode, error: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(c.body);
  });
}

/** What is wrong with an answer, or undefined when it is acceptable. */
function problem(c: FuzzCase, answer: Answer): string | undefined {
  if (answer.status === undefined) return `no response (${answer.error})`;
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400 || c.method === 'HEAD') return undefined;
  if (!/^application\/json\b/.test(answer.contentType ?? '')) return `${answer.status} with content-type ${answer.contentType}`;
  let body: any;
  try {
    body = JSON.parse(answer.text ?? '');
  } catch {
    return `${answer.status} with a body that is not JSON`;
  }
  const ok = body?.success === false && typeof body.error === 'string' && body.error.length > 0 && /^[A-Z][A-Z0-9_]*$/.test(body.code);
  return ok ? undefined : `${answer.status} with body ${JSON.stringify(body).slice(0, 200)}`;
}

/** 5xx answers a gateway has counted (its health probe may have seen 503s while Redis connected). */
async function serverErrors(gateway: RunningGateway): Promise<number> {
  const text = await (await fetch(gateway.metricsUrl)).text();
  return [...text.matchAll(/^sitelens_http_requests_total\{[^}]*status="5\d\d"[^}]*\} (\S+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

function describeCase(c: FuzzCase): string {
  const body = c.body ? ` body(${c.body.length} B)=${c.body.toString('utf8', 0, 120)}` : '';
  return `${c.method} ${c.target.slice(0, 160)} [${c.kind}] headers=${JSON.stringify(c.headers).slice(0, 160)}${body}`;
}

async function runAll(cases: ReadonlyArray<{ port: number; c: FuzzCase }>): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < cases.length) {
        const { port, c } = cases[next++];
        const answer = await send(port, c);
        const wrong = problem(c, answer);
        if (wrong) failures.push(`${wrong}: ${describeCase(c)} -> ${(answer.text ?? '').slice(0, 160)}`);
      }
    }),
  );
  return failures;
}

describe('fault: fuzzed bad requests', () => {
  const gateways: Array<{ gateway: RunningGateway; prefix: string }> = [];

  afterAll(async () => {
    for (const { gateway, prefix } of gateways) {
      await gateway.proc.stop();
      await dropPrefix(prefix);
    }
  });

  it(`answers ${TOTAL} bad requests to every route with a 4xx JSON error, never a 5xx`, async () => {
    const seed = Number(process.env.FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);
    const adminToken = 'fuzz-admin-token';
    const local = stackEnv({
      label: 'fuzz-local',
      storage: { dataDir: mkdtempSync(path.join(tmpdir(), 'sitelens-fuzz-')) },
      extra: { ADMIN_TOKEN: adminToken },
    });
    const hosted = stackEnv({
      label: 'fuzz-hosted',
      extra: { MODE: 'hosted', API_KEYS: `${API_KEY}:enterprise`, ADMIN_TOKEN: adminToken },
    });
    const [localGateway, hostedGateway] = await Promise.all([startGatewayProcess(local), startGatewayProcess(hosted)]);
    gateways.push({ gateway: localGateway, prefix: local.QUEUE_PREFIX }, { gateway: hostedGateway, prefix: hosted.QUEUE_PREFIX });

    const routes = allRoutes();
    // Seeded too, so FUZZ_SEED replays which requests carry the admin token.
    const adminDraw = seededRandom(seed + 2);
    const localCases = createGenerator(routes, seed, () => (adminDraw() < 0.1 ? `Bearer ${adminToken}` : undefined));
    const hostedCases = createGenerator(routes, seed + 1, () => `Bearer ${API_KEY}`);
    const hostedCount = Math.round(TOTAL * HOSTED_SHARE);
    const cases = [
      ...Array.from({ length: TOTAL - hostedCount }, () => ({ port: localGateway.port, c: localCases.next() })),
      ...Array.from({ length: hostedCount }, () => ({ port: hostedGateway.port, c: hostedCases.next() })),
    ];
    expect(cases).toHaveLength(TOTAL);

    const errorsBefore = await Promise.all(gateways.map(({ gateway }) => serverErrors(gateway)));
    const failures = await runAll(cases);
    if (failures.length > 0)
      throw new Error(`FUZZ_SEED=${seed}: ${failures.length} of ${TOTAL} bad answers, first ones:\n${failures.slice(0, 10).join('\n')}`);

    // The gateways counted no 5xx either, and are still healthy.
    expect(await Promise.all(gateways.map(({ gateway }) => serverErrors(gateway)))).toEqual(errorsBefore);
    for (const { gateway } of gateways) {
      expect((await fetch(`${gateway.origin}/v1/health`)).status).toBe(200);
      const metrics = await (await fetch(gateway.metricsUrl)).text();
      expect(sampleValue(metrics, 'sitelens_http_requests_total', { status: '400' })).toBeGreaterThan(0);
    }
  }, 90_000);
});
