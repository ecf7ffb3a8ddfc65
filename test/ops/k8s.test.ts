/**
 * The Kubernetes manifests, read against the code: probes on the endpoints the services serve,
 * resources, termination longer than the shutdown deadline, settings the config accepts, and KEDA
 * triggers on the very Redis lists BullMQ writes (checked against a real Redis too).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, loadConfig, parseDuration, type Env } from '@sitelens/config';
import { PLANS, QUEUES, type ScreenshotJobName, type ScreenshotJobPayload, type ScreenshotJobResult } from '@sitelens/contracts';
import { createJobGate, createRedis, createScreenshotQueue, createWorker, startJobWorker } from '@sitelens/queue';
import { allRoutes } from '@sitelens/gateway';
import { testRedisUrl, uniquePrefix } from '@sitelens/testkit';
import {
  REPO_ROOT,
  execForm,
  chainInstructions,
  loadYamlDocuments,
  parseDockerfile,
  parseQuantity,
  repoFile,
  type Doc,
} from './support/manifests';

const kustomization = loadYamlDocuments('k8s/kustomization.yaml')[0];
const docs: Doc[] = (kustomization.resources as string[]).flatMap((file) => loadYamlDocuments(path.join('k8s', file)));
const pkg = JSON.parse(repoFile('package.json')) as { scripts: Record<string, string> };
const { stages } = parseDockerfile(repoFile('Dockerfile'));

const ofKind = (kind: string) => docs.filter((doc) => doc.kind === kind);
const named = (kind: string, name: string) => {
  const found = ofKind(kind).find((doc) => doc.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};

const configMap = named('ConfigMap', 'sitelens-config');
const appSecret = named('Secret', 'sitelens-secrets');
const settings: Env = { ...configMap.data, ...appSecret.stringData };
const prefix: string = configMap.data.QUEUE_PREFIX ?? loadConfig({}).redis.prefix;

/** Which queue each worker Deployment consumes. */
const WORKER_QUEUES = { 'screenshot-worker': QUEUES.screenshot, 'parse-worker': QUEUES.parse } as const;
const DEPLOYMENTS = ['gateway', ...Object.keys(WORKER_QUEUES)];

function containerOf(name: string): Doc {
  const containers = named('Deployment', name).spec.template.spec.containers as Doc[];
  expect(containers).toHaveLength(1);
  return containers[0];
}

function envOf(name: string): Env {
  const container = containerOf(name);
  const fromEnv = Object.fromEntries(((container.env as Doc[] | undefined) ?? []).map((e) => [e.name, e.value]));
  return { ...settings, ...fromEnv };
}

function preStopSeconds(container: Doc): number {
  const command: string[] | undefined = container.lifecycle?.preStop?.exec?.command;
  return command && command[0] === 'sleep' ? Number(command[1]) : 0;
}

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

describe('k8s manifests', () => {
  it('are all in the kustomization, in one namespace', () => {
    const files = readdirSync(path.join(REPO_ROOT, 'k8s')).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...(kustomization.resources as string[])].sort()).toEqual(files.sort());
    expect(kustomization.namespace).toBe(named('Namespace', kustomization.namespace).metadata.name);
    for (const doc of docs) {
      expect(typeof doc.apiVersion).toBe('string');
      expect(typeof doc.metadata?.name).toBe('string');
      if (doc.metadata.namespace) expect(doc.metadata.namespace).toBe(kustomization.namespace);
    }
  });

  it('deploy the three services', () => {
    expect(
      ofKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...DEPLOYMENTS].sort());
  });

  it('name only settings the config reads, and the config accepts them for every service', () => {
    const names = [...Object.keys(configMap.data), ...Object.keys(appSecret.stringData)];
    for (const name of DEPLOYMENTS) names.push(...(containerOf(name).env as Doc[]).map((e) => e.name as string));
    for (const name of names) expect([name, CONFIG_VARIABLES.includes(name)]).toEqual([name, true]);
    for (const name of DEPLOYMENTS) {
      const config = loadConfig(envOf(name));
      expect(config.role).toBe(name);
      expect(config.mode).toBe('hosted');
      // Pods share no disk: blobs go to S3.
      expect(config.storage.driver).toBe('s3');
    }
  });

  it.each(DEPLOYMENTS)('%s: image, command and ROLE match its Dockerfile target and `npm run serve`', (name) => {
    const container = containerOf(name);
    expect(container.name).toBe(name);
    expect(container.image).toMatch(new RegExp(`^sitelens/${name}:[\\w.-]+$`));
    expect((kustomization.images as Doc[]).map((i) => i.name)).toContain(`sitelens/${name}`);
    expect(container.command.join(' ')).toBe(pkg.scripts.serve);
    expect(container.command).toEqual(execForm(chainInstructions(stages, name, 'CMD').pop()!));
    expect(envOf(name).ROLE).toBe(name);
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'sitelens-config' } }, { secretRef: { name: 'sitelens-secrets' } }]);
  });

  it.each(DEPLOYMENTS)('%s: selector, labels, and no replica count fighting its autoscaler', (name) => {
    const deployment = named('Deployment', name);
    expect(selects(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
    expect(deployment.spec.replicas).toBeUndefined();
    const scalers = [...ofKind('HorizontalPodAutoscaler'), ...ofKind('ScaledObject')].filter((s) => s.spec.scaleTargetRef.name === name);
    expect(scalers).toHaveLength(1);
  });

  it.each(DEPLOYMENTS)('%s: readiness and liveness probes on the endpoints the service serves', (name) => {
    const container = containerOf(name);
    const env = loadConfig(envOf(name));
    const portsByName = Object.fromEntries((container.ports as Doc[]).map((p) => [p.name, p.containerPort]));
    const { readinessProbe: ready, livenessProbe: live } = container;
    expect(ready).toBeDefined();
    expect(live).toBeDefined();
    if (name === 'gateway') {
      expect(portsByName.http).toBe(env.http.port);
      // Hosted mode: /metrics on the ops port.
      expect(portsByName.ops).toBe(env.opsHttp?.port);
      expect(ready.httpGet).toEqual({ path: '/v1/health', port: 'http' });
      // Liveness must not depend on Redis: an outage would restart every gateway.
      expect(live.tcpSocket).toEqual({ port: 'http' });
    } else {
      expect(portsByName.ops).toBe(env.opsHttp?.port);
      expect(ready.httpGet).toEqual({ path: '/readyz', port: 'ops' });
      expect(live.httpGet).toEqual({ path: '/healthz', port: 'ops' });
    }
    for (const probe of [ready, live]) {
      expect(probe.periodSeconds).toBeGreaterThan(0);
      expect(probe.timeoutSeconds).toBeLessThan(probe.periodSeconds);
    }
  });

  it.each(DEPLOYMENTS)('%s: resource requests within limits', (name) => {
    const { requests, limits } = containerOf(name).resources;
    for (const resource of ['cpu', 'memory']) {
      expect(parseQuantity(requests[resource])).toBeGreaterThan(0);
      expect(parseQuantity(requests[resource])).toBeLessThanOrEqual(parseQuantity(limits[resource]));
    }
  });

  it('gives the screenshot worker the most memory, and memory-backed /dev/shm to Chromium workers', () => {
    const memory = (name: string) => parseQuantity(containerOf(name).resources.limits.memory);
    expect(memory('screenshot-worker')).toBeGreaterThan(memory('parse-worker'));
    expect(memory('screenshot-worker')).toBeGreaterThan(memory('gateway'));
    for (const name of Object.keys(WORKER_QUEUES)) {
      const spec = named('Deployment', name).spec.template.spec;
      const mount = (containerOf(name).volumeMounts as Doc[]).find((m) => m.mountPath === '/dev/shm');
      const volume = (spec.volumes as Doc[]).find((v) => v.name === mount?.name);
      expect(volume?.emptyDir.medium).toBe('Memory');
    }
  });

  it.each(DEPLOYMENTS)('%s: terminationGracePeriodSeconds longer than preStop + SHUTDOWN_TIMEOUT + serve.js margin', (name) => {
    const shutdownSeconds = loadConfig(envOf(name)).shutdownTimeoutMs / 1000;
    const grace = named('Deployment', name).spec.template.spec.terminationGracePeriodSeconds;
    expect(grace).toBeGreaterThan(preStopSeconds(containerOf(name)) + shutdownSeconds + 5);
    expect(parseDuration(configMap.data.SHUTDOWN_TIMEOUT)).toBe(shutdownSeconds * 1000);
  });

  it.each(DEPLOYMENTS)('%s: runs as the image user, non-root, read-only root with a writable /tmp', (name) => {
    const pod = named('Deployment', name).spec.template.spec;
    const container = containerOf(name);
    const dockerUid = /useradd .*--uid (\d+)/.exec(repoFile('Dockerfile'))?.[1];
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(String(pod.securityContext.runAsUser)).toBe(dockerUid);
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect((container.volumeMounts as Doc[]).map((m) => m.mountPath)).toContain('/tmp');
  });

  it.each(DEPLOYMENTS)('%s: no secret left to DATA_DIR, which is neither writable nor shared between pods', (name) => {
    const dataDir = chainInstructions(stages, name, 'ENV')
      .map((i) => /\bDATA_DIR=(\S+)/.exec(i.getArgumentsContent() ?? '')?.[1])
      .filter(Boolean)
      .pop();
    expect(dataDir).toBe('/data');
    expect((containerOf(name).volumeMounts as Doc[]).map((m) => m.mountPath)).not.toContain(dataDir);
    const config = loadConfig(envOf(name));
    // Hosted mode keeps no webhook secret in DATA_DIR: issued keys sign with their own (Redis),
    // and static API_KEYS keys need WEBHOOK_SECRET, or their webhook_url is refused.
    expect(config.mode).toBe('hosted');
    if (config.apiKeys.length > 0) expect(config.webhookSecret).toEqual(expect.any(String));
    if (config.storage.driver === 'fs') expect(config.storage.signingSecret).toEqual(expect.any(String));
  });

  it.each(DEPLOYMENTS)('%s: Prometheus scrapes /metrics on the ops port, which no Service publishes', (name) => {
    const annotations = named('Deployment', name).spec.template.metadata.annotations;
    const env = loadConfig(envOf(name));
    const ops = (containerOf(name).ports as Doc[]).find((p) => p.name === 'ops');
    expect(annotations['prometheus.io/scrape']).toBe('true');
    expect(annotations['prometheus.io/path']).toBe('/metrics');
    expect(Number(annotations['prometheus.io/port'])).toBe(env.opsHttp?.port);
    expect(ops?.containerPort).toBe(env.opsHttp?.port);
    for (const service of ofKind('Service')) {
      for (const port of service.spec.ports as Doc[])
        expect([service.metadata.name, port.targetPort]).not.toEqual([service.metadata.name, 'ops']);
    }
  });

  it.each(DEPLOYMENTS)('%s: a PodDisruptionBudget', (name) => {
    const labels = named('Deployment', name).spec.template.metadata.labels;
    const budgets = ofKind('PodDisruptionBudget').filter((pdb) => selects(pdb.spec.selector.matchLabels, labels));
    expect(budgets).toHaveLength(1);
    expect(budgets[0].spec.minAvailable ?? budgets[0].spec.maxUnavailable).toBeGreaterThan(0);
  });

  it('serves the gateway through a Service and an Ingress that publish every route but /metrics', () => {
    const service = named('Service', 'gateway');
    expect(selects(service.spec.selector, named('Deployment', 'gateway').spec.template.metadata.labels)).toBe(true);
    expect(service.spec.ports[0].targetPort).toBe('http');
    const ingress = named('Ingress', 'gateway');
    const paths = (ingress.spec.rules as Doc[]).flatMap((rule) => rule.http.paths as Doc[]);
    for (const p of paths) expect(p.backend.service).toEqual({ name: 'gateway', port: { name: service.spec.ports[0].name } });
    const published = (route: string) =>
      paths.some((p) => (p.pathType === 'Exact' ? route === p.path : route === p.path || route.startsWith(`${p.path}/`)));
    for (const route of allRoutes().flatMap((r) => r.paths)) {
      expect([route, published(route)]).toEqual([route, route !== '/metrics']);
    }
  });

  it('scales the gateway on CPU', () => {
    const hpa = named('HorizontalPodAutoscaler', 'gateway');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'gateway' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.metrics[0].resource.name).toBe('cpu');
  });

  describe('KEDA', () => {
    const redisService = named('Service', 'redis');
    const redisPort = redisService.spec.ports[0].port;

    it('scales every queue, with the code’s default key prefix', () => {
      expect(prefix).toBe(loadConfig({}).redis.prefix);
      const targets = ofKind('ScaledObject').map((s) => s.spec.scaleTargetRef.name);
      expect(targets.sort()).toEqual(Object.keys(WORKER_QUEUES).sort());
      expect(Object.values(WORKER_QUEUES).sort()).toEqual(Object.values(QUEUES).sort());
    });

    it.each(Object.entries(WORKER_QUEUES))('%s scales on <prefix>:%s:wait (and its active list)', (worker, queue) => {
      const scaled = ofKind('ScaledObject').find((s) => s.spec.scaleTargetRef.name === worker)!;
      const triggers = scaled.spec.triggers as Doc[];
      const lists = triggers.map((t) => t.metadata.listName);
      expect(lists).toContain(`${prefix}:${queue}:wait`);
      for (const list of lists) expect([`${prefix}:${queue}:wait`, `${prefix}:${queue}:active`]).toContain(list);
      expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(scaled.spec.maxReplicaCount).toBeGreaterThan(scaled.spec.minReplicaCount);
      for (const trigger of triggers) {
        expect(trigger.type).toBe('redis');
        expect(trigger.metadata.address).toBe(`${redisService.metadata.name}.${kustomization.namespace}.svc.cluster.local:${redisPort}`);
        expect(Number(trigger.metadata.listLength)).toBeGreaterThan(0);
        const auth = named('TriggerAuthentication', trigger.authenticationRef.name);
        for (const ref of auth.spec.secretTargetRef as Doc[]) expect(named('Secret', ref.name).stringData[ref.key]).toBeDefined();
      }
    });

    it('counts a busy worker by the jobs it holds: its active trigger is its concurrency (+ prefetch)', () => {
      const config = loadConfig(settings);
      const held = {
        'screenshot-worker': config.browser.concurrency + config.browser.prefetch,
        'parse-worker': config.llm.concurrency,
      };
      for (const [worker, queue] of Object.entries(WORKER_QUEUES)) {
        const scaled = ofKind('ScaledObject').find((s) => s.spec.scaleTargetRef.name === worker)!;
        const active = (scaled.spec.triggers as Doc[]).find((t) => t.metadata.listName === `${prefix}:${queue}:active`);
        expect([worker, Number(active?.metadata.listLength)]).toEqual([worker, held[worker as keyof typeof held]]);
      }
      // Both set in the ConfigMap, not left to the machine the pod lands on.
      expect(configMap.data.SCREENSHOT_CONCURRENCY).toBeDefined();
      expect(configMap.data.SCREENSHOT_PREFETCH).toBeDefined();
    });

    it('reads the lists BullMQ really writes', async () => {
      const keyPrefix = uniquePrefix('keda');
      const redis = createRedis(testRedisUrl(), 'client');
      const workerConnection = createRedis(testRedisUrl(), 'worker');
      const queue = createScreenshotQueue({ connection: redis, prefix: keyPrefix, retentionMs: 60_000 });
      let release: () => void = () => undefined;
      const worker = createWorker(
        QUEUES.screenshot,
        () => new Promise<never>((_, reject) => (release = () => reject(new Error('released')))),
        { connection: workerConnection, prefix: keyPrefix },
        { autorun: false },
      );
      const payload = { request: { url: 'https://example.com' }, timeoutSeconds: 30, acceptedAt: Date.now() } as never;
      try {
        await queue.add('screenshot', payload);
        await queue.add('screenshot', payload);
        expect(await redis.type(`${keyPrefix}:${QUEUES.screenshot}:wait`)).toBe('list');
        expect(await redis.llen(`${keyPrefix}:${QUEUES.screenshot}:wait`)).toBe(2);
        const active = new Promise<void>((resolve) => worker.once('active', () => resolve()));
        void worker.run();
        await active;
        expect(await redis.llen(`${keyPrefix}:${QUEUES.screenshot}:active`)).toBe(1);
        expect(await redis.llen(`${keyPrefix}:${QUEUES.screenshot}:wait`)).toBe(1);
      } finally {
        release();
        await worker.close();
        await queue.obliterate({ force: true });
        await queue.close();
        redis.disconnect();
        workerConnection.disconnect();
      }
    });

    it('sees a busy worker hold its slots plus the job it picked up ahead on the active list', async () => {
      const keyPrefix = uniquePrefix('keda-prefetch');
      const redis = createRedis(testRedisUrl(), 'client');
      const workerConnection = createRedis(testRedisUrl(), 'worker');
      const queue = createScreenshotQueue({ connection: redis, prefix: keyPrefix, retentionMs: 60_000 });
      const releases: Array<() => void> = [];
      const jobs = startJobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>(
        QUEUES.screenshot,
        {
          connection: workerConnection,
          prefix: keyPrefix,
          retentionMs: 60_000,
          concurrency: 1,
          prefetch: 1,
          handBackMs: 600_000,
          queueTimeoutMs: 60_000,
        },
        { process: () => new Promise<never>((_, reject) => releases.push(() => reject(new Error('released')))) },
      );
      const payload = { request: { url: 'https://example.com' }, timeoutSeconds: 30, acceptedAt: Date.now() } as never;
      try {
        const pickedUp = new Promise<void>((resolve) => {
          let seen = 0;
          jobs.worker.on('active', () => (seen += 1) === 2 && resolve());
        });
        for (let i = 0; i < 3; i += 1) await queue.add('screenshot', payload);
        await pickedUp;
        expect(await redis.llen(`${keyPrefix}:${QUEUES.screenshot}:active`)).toBe(2);
        expect(await redis.llen(`${keyPrefix}:${QUEUES.screenshot}:wait`)).toBe(1);
        expect(releases).toHaveLength(1); // one runs, one waits in the worker for the slot
      } finally {
        for (const release of releases) release();
        await jobs.worker.close(true);
        await jobs.close();
        await queue.obliterate({ force: true });
        await queue.close();
        redis.disconnect();
        workerConnection.disconnect();
      }
    });

    it('counts the jobs that can run, not a key’s jobs parked over its cap (fair share)', async () => {
      const keyPrefix = uniquePrefix('keda-share');
      const redis = createRedis(testRedisUrl(), 'client');
      const queue = createScreenshotQueue({ connection: redis, prefix: keyPrefix, retentionMs: 60_000 });
      const gate = createJobGate(redis, queue, { prefix: keyPrefix, queue: QUEUES.screenshot });
      const payload = (owner?: string) =>
        ({
          request: { url: 'https://example.com' },
          timeoutSeconds: 30,
          acceptedAt: Date.now(),
          ...(owner ? { owner, plan: 'free' } : {}),
        }) as never;
      const cap = PLANS.free.runningJobs;
      try {
        for (let i = 0; i < cap + 3; i += 1) await gate.add('screenshot', payload('free-key'), { jobId: `free-${i}` });
        await gate.add('screenshot', payload('other-key'), { jobId: 'other' });
        await gate.add('screenshot', payload(), { jobId: 'local' });
        const wait = await redis.lrange(`${keyPrefix}:${QUEUES.screenshot}:wait`, 0, -1);
        expect(wait.sort()).toEqual([...Array.from({ length: cap }, (_, i) => `free-${i}`), 'local', 'other'].sort());
        expect(await queue.getDelayedCount()).toBe(3);
      } finally {
        await queue.obliterate({ force: true });
        await queue.close();
        redis.disconnect();
      }
    });
  });

  describe('Redis', () => {
    const statefulSet = named('StatefulSet', 'redis');
    const container = statefulSet.spec.template.spec.containers[0];

    it('keeps jobs: AOF on a persistent volume, no eviction', () => {
      const args = (container.args as string[]).join(' ');
      expect(args).toContain('--appendonly yes');
      expect(args).toContain('--maxmemory-policy noeviction');
      expect(parseQuantity(args.match(/--maxmemory (\d+)mb/)![1]) * 2 ** 20).toBeLessThan(parseQuantity(container.resources.limits.memory));
      expect(statefulSet.spec.volumeClaimTemplates[0].metadata.name).toBe(container.volumeMounts[0].name);
      expect(container.volumeMounts[0].mountPath).toBe('/data');
      expect(container.readinessProbe).toBeDefined();
      expect(container.livenessProbe).toBeDefined();
    });

    it('is the Redis REDIS_URL points at, with the same password', () => {
      const url = new URL(appSecret.stringData.REDIS_URL);
      expect(url.hostname).toBe(named('Service', 'redis').metadata.name);
      expect(Number(url.port)).toBe(named('Service', 'redis').spec.ports[0].port);
      expect(decodeURIComponent(url.password)).toBe(named('Secret', 'sitelens-redis').stringData.password);
      expect(container.args).toContain('$(REDIS_PASSWORD)');
    });
  });
});
