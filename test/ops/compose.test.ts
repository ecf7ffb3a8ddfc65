/**
 * docker-compose.yml and .env.example, read against the code: every service's build target,
 * command, settings and health check; Redis durability flags; MinIO and its bucket; every
 * variable documented and accepted by the config.
 */
import { CONFIG_VARIABLES, ROLES, loadConfig, parseDuration } from '@sitelens/config';
import { execForm, parseDockerfile, parseEnvFile, repoFile, repoPathExists, chainInstructions, loadYamlDocuments, type Doc } from '../support/manifests';

const compose = loadYamlDocuments('docker-compose.yml')[0];
const services = compose.services as Record<string, Doc>;
const env = parseEnvFile(repoFile('.env.example'));
const pkg = JSON.parse(repoFile('package.json')) as { scripts: Record<string, string> };
const { stages } = parseDockerfile(repoFile('Dockerfile'));
const APP_SERVICES = ['gateway', 'screenshot-worker', 'parse-worker'] as const;

/** Compose's `${NAME:-default}`: the variable's name and its default. */
function interpolation(value: string): { name: string; fallback: string } | undefined {
  const match = /^\$\{([A-Z0-9_]+):-([^}]*)\}$/.exec(value);
  return match ? { name: match[1], fallback: match[2] } : undefined;
}

function portsOf(service: Doc): Array<{ host: number; container: number }> {
  return (service.ports as string[] | undefined ?? []).map((spec) => {
    const parts = spec.split(':');
    return { host: Number(parts[parts.length - 2]), container: Number(parts[parts.length - 1]) };
  });
}

describe('.env.example', () => {
  it('documents every variable the config reads, and only those, once each', () => {
    const documented = env.order;
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('gives the config values it accepts: MODE=local, S3 storage on the compose MinIO', () => {
    const config = loadConfig(env.values);
    expect(config.mode).toBe('local');
    expect(config.storage.driver).toBe('s3');
    expect(new URL(config.storage.s3.endpoint!).host).toBe('minio:9000');
    expect(new URL(config.redis.url).hostname).toBe('redis');
    expect(config.redis.prefix).toBe(loadConfig({}).redis.prefix);
  });

  it.each(Object.entries(env.commented))('has an example for %s that the config accepts', (name, example) => {
    expect(() => loadConfig({ ...env.values, [name]: example })).not.toThrow();
  });

  it('keeps optional settings commented out rather than empty (an empty URL is not a URL)', () => {
    for (const [name, value] of Object.entries(env.values)) expect([name, value]).not.toEqual([name, '']);
  });

  it('sets WEBHOOK_SECRET: DATA_DIR is each container\'s own, and scaled parse workers must sign alike', () => {
    expect(loadConfig(env.values).webhookSecret).toEqual(expect.any(String));
    for (const name of APP_SERVICES) expect(services[name].volumes).toBeUndefined();
  });
});

describe('docker-compose.yml', () => {
  it('runs the three services, Redis, MinIO and the bucket init', () => {
    expect(Object.keys(services).sort()).toEqual([...APP_SERVICES, 'minio', 'minio-init', 'redis'].sort());
  });

  it.each(APP_SERVICES)('%s: image from its Dockerfile target, run as `npm run serve` does, with its ROLE', (name) => {
    const service = services[name];
    expect(service.build).toEqual({ context: '.', target: name });
    expect(stages.map((s) => s.name)).toContain(name);
    expect(service.image).toMatch(new RegExp(`^sitelens/${name}:`));
    expect(ROLES).toContain(service.environment.ROLE);
    expect(service.environment.ROLE).toBe(name);
    expect(service.command.join(' ')).toBe(pkg.scripts.serve);
    expect(service.command).toEqual(execForm(chainInstructions(stages, name, 'CMD').pop()!));
    for (const variable of Object.keys(service.environment)) expect(CONFIG_VARIABLES).toContain(variable);
  });

  it.each(APP_SERVICES)('%s: every setting from the env files, .env winning', (name) => {
    expect(services[name].env_file).toEqual([{ path: '.env.example' }, { path: '.env', required: false }]);
    expect(repoPathExists('.env.example')).toBe(true);
  });

  it.each(APP_SERVICES)('%s: health check, start order and a stop grace longer than the shutdown deadline', (name) => {
    const service = services[name];
    expect(service.healthcheck.test[0]).toBe('CMD');
    expect(service.healthcheck.test.slice(1, 2)).toEqual(['node']);
    expect(repoPathExists(service.healthcheck.test[2])).toBe(true);
    for (const key of ['interval', 'timeout', 'start_period']) expect(parseDuration(service.healthcheck[key])).toBeGreaterThan(0);
    expect(service.depends_on).toEqual({
      redis: { condition: 'service_healthy' },
      'minio-init': { condition: 'service_completed_successfully' },
    });
    expect(service.restart).toBe('unless-stopped');
    // serve.js exits SHUTDOWN_TIMEOUT + 5 s after SIGTERM at the latest.
    const shutdownMs = loadConfig(env.values).shutdownTimeoutMs;
    expect(parseDuration(service.stop_grace_period)).toBeGreaterThan(shutdownMs + 5_000);
  });

  it('publishes the gateway on the port it listens on (8081)', () => {
    const port = loadConfig(env.values).http.port;
    expect(port).toBe(8081);
    expect(portsOf(services.gateway)).toEqual([{ host: port, container: port }]);
    expect(portsOf(services['screenshot-worker'])).toEqual([]);
    expect(portsOf(services['parse-worker'])).toEqual([]);
  });

  it('gives Chromium workers shared memory', () => {
    expect(services['screenshot-worker'].shm_size).toMatch(/^\d+(gb|mb)$/);
    expect(services['parse-worker'].shm_size).toMatch(/^\d+(gb|mb)$/);
  });

  it('runs Redis with AOF on, no eviction, a volume and a health check', () => {
    const redis = services.redis;
    const command = (redis.command as string[]).join(' ');
    expect(command).toMatch(/^redis-server /);
    expect(command).toContain('--appendonly yes');
    expect(command).toContain('--maxmemory-policy noeviction');
    expect(redis.volumes).toEqual(['redis-data:/data']);
    expect(Object.keys(compose.volumes)).toContain('redis-data');
    expect(redis.healthcheck.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(new URL(env.values.REDIS_URL).port || '6379').toBe('6379');
  });

  it('runs MinIO with the credentials the services use, reachable from the host for presigned URLs', () => {
    const minio = services.minio;
    const user = interpolation(minio.environment.MINIO_ROOT_USER);
    const password = interpolation(minio.environment.MINIO_ROOT_PASSWORD);
    expect(user).toEqual({ name: 'S3_ACCESS_KEY_ID', fallback: env.values.S3_ACCESS_KEY_ID });
    expect(password).toEqual({ name: 'S3_SECRET_ACCESS_KEY', fallback: env.values.S3_SECRET_ACCESS_KEY });
    const publicEndpoint = new URL(env.values.S3_PUBLIC_ENDPOINT);
    const internalEndpoint = new URL(env.values.S3_ENDPOINT);
    expect(publicEndpoint.hostname).toBe('localhost');
    expect(portsOf(minio)).toContainEqual({ host: Number(publicEndpoint.port), container: Number(internalEndpoint.port) });
    expect(minio.healthcheck.test).toEqual(['CMD', 'mc', 'ready', 'local']);
    expect(minio.volumes).toEqual(['minio-data:/data']);
  });

  it('creates the bucket once MinIO is healthy, from the same settings', () => {
    const init = services['minio-init'];
    expect(init.depends_on).toEqual({ minio: { condition: 'service_healthy' } });
    expect(init.env_file).toEqual(services.gateway.env_file);
    expect(init.restart).toBe('no');
    const script = (init.command as string[]).join(' ');
    expect(script).toContain('mc alias set sitelens "$$S3_ENDPOINT" "$$S3_ACCESS_KEY_ID" "$$S3_SECRET_ACCESS_KEY"');
    expect(script).toContain('mc mb --ignore-existing "sitelens/$$S3_BUCKET"');
  });
});
