/**
 * docker-compose.yml and .env.example, read against the code: every service's build target,
 * command, settings and health check; Redis durability flags; MinIO and its bucket; every
 * variable documented and accepted by the config.
 */
import { CONFIG_VARIABLES, ROLES, loadConfig, parseDuration } from '@sitelens/config';
import {
  execForm,
  parseDockerfile,
  parseEnvFile,
  repoFile,
  repoPathExists,
  chainInstructions,
  loadYamlDocuments,
  type Doc,
} from './support/manifests';

const compose = loadYamlDocuments('docker-compose.yml')[0];
const services = compose.services as Record<string, Doc>;
const env = parseEnvFile(repoFile('.env.example'));
/** The example with its required secrets filled in, as an operator's .env does. */
const withSecrets = {
  ...env.values,
  S3_SECRET_ACCESS_KEY: 'operator-chosen-minio-secret',
  WEBHOOK_SECRET: 'operator-chosen-webhook-secret',
};
const pkg = JSON.parse(repoFile('package.json')) as { scripts: Record<string, string> };
const { stages } = parseDockerfile(repoFile('Dockerfile'));
const APP_SERVICES = ['gateway', 'screenshot-worker', 'parse-worker'] as const;
/** Secrets .env.example leaves empty: the operator sets them in .env, compose refuses to start without. */
const REQUIRED_SECRETS = ['S3_SECRET_ACCESS_KEY', 'WEBHOOK_SECRET'];
/** Settings that hold a secret (a user name is not one). */
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|API_KEY/;

/** Compose's `${NAME:-default}` and `${NAME:?message}`: the variable's name, and its default or required message. */
function interpolation(value: string): { name: string; fallback?: string; required?: string } | undefined {
  const match = /^\$\{([A-Z0-9_]+):([-?])([^}]*)\}$/.exec(value);
  if (!match) return undefined;
  return match[2] === '-' ? { name: match[1], fallback: match[3] } : { name: match[1], required: match[3] };
}

function portsOf(service: Doc): Array<{ bind: string | undefined; host: number; container: number }> {
  return ((service.ports as string[] | undefined) ?? []).map((spec) => {
    const parts = spec.split(':');
    return {
      bind: parts.length === 3 ? parts[0] : undefined,
      host: Number(parts[parts.length - 2]),
      container: Number(parts[parts.length - 1]),
    };
  });
}

describe('.env.example', () => {
  it('documents every variable the config reads, and only those, once each', () => {
    const documented = env.order;
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('gives the config values it accepts: MODE=local, S3 storage on the compose MinIO', () => {
    const config = loadConfig(withSecrets);
    expect(config.mode).toBe('local');
    expect(config.storage.driver).toBe('s3');
    expect(new URL(config.storage.s3.endpoint!).host).toBe('minio:9000');
    expect(new URL(config.redis.url).hostname).toBe('redis');
    expect(config.redis.prefix).toBe(loadConfig({}).redis.prefix);
  });

  it.each(Object.entries(env.commented))('has an example for %s that the config accepts', (name, example) => {
    expect(() => loadConfig({ ...env.values, [name]: example })).not.toThrow();
  });

  it('keeps optional settings commented out rather than empty (an empty URL is not a URL); only required secrets are empty', () => {
    for (const [name, value] of Object.entries(env.values)) {
      if (!REQUIRED_SECRETS.includes(name)) expect([name, value]).not.toEqual([name, '']);
    }
    for (const name of REQUIRED_SECRETS) expect([name, env.values[name]]).toEqual([name, '']);
  });

  it('ships no usable secret: every secret setting is empty or a commented-out example', () => {
    const secrets = Object.entries(env.values).filter(([name]) => SECRET_NAME.test(name));
    expect(secrets.map(([name]) => name).sort()).toEqual([...REQUIRED_SECRETS].sort());
    for (const [name, value] of secrets) expect([name, value]).toEqual([name, '']);
    // Left empty, they are no secret at all to the config.
    const config = loadConfig(env.values);
    expect([config.webhookSecret, config.storage.s3.secretAccessKey, config.adminToken, config.storage.signingSecret]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
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
    expect(portsOf(services.gateway)).toEqual([{ bind: undefined, host: port, container: port }]);
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

  it('runs MinIO with the credentials the services use, and no default password', () => {
    const minio = services.minio;
    const user = interpolation(minio.environment.MINIO_ROOT_USER);
    const password = interpolation(minio.environment.MINIO_ROOT_PASSWORD);
    expect(user).toEqual({ name: 'S3_ACCESS_KEY_ID', fallback: env.values.S3_ACCESS_KEY_ID });
    expect(password).toEqual({ name: 'S3_SECRET_ACCESS_KEY', required: expect.stringMatching(/S3_SECRET_ACCESS_KEY.*\.env/) });
  });

  it('publishes MinIO (S3 API and console) on this machine only, for presigned URLs from the host', () => {
    const minio = services.minio;
    const publicEndpoint = new URL(env.values.S3_PUBLIC_ENDPOINT);
    const internalEndpoint = new URL(env.values.S3_ENDPOINT);
    expect(publicEndpoint.hostname).toBe('localhost');
    expect(portsOf(minio)).toContainEqual({
      bind: '127.0.0.1',
      host: Number(publicEndpoint.port),
      container: Number(internalEndpoint.port),
    });
    for (const port of portsOf(minio)) expect(port.bind).toBe('127.0.0.1');
    expect(minio.healthcheck.test).toEqual(['CMD', 'mc', 'ready', 'local']);
    expect(minio.volumes).toEqual(['minio-data:/data']);
  });

  it("requires WEBHOOK_SECRET for the parse workers: DATA_DIR is each container's own, and scaled workers must sign alike", () => {
    expect(interpolation(services['parse-worker'].environment.WEBHOOK_SECRET)).toEqual({
      name: 'WEBHOOK_SECRET',
      required: expect.stringMatching(/WEBHOOK_SECRET.*\.env/),
    });
    for (const name of APP_SERVICES) expect(services[name].volumes).toBeUndefined();
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
