import { ConfigError, loadConfig } from '../src/config';

/** The message loadConfig throws for `env`, or undefined when it loads. */
function failureOf(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
}

describe('loadConfig', () => {
  it('gives the keyless local instance on :8081 with the filesystem driver when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      mode: 'local',
      role: 'all',
      http: { host: '', port: 8081 },
      redis: { url: 'redis://127.0.0.1:6379', prefix: 'sitelens' },
      jobRetentionMs: 24 * 3_600_000,
      storage: { driver: 'fs', dataDir: '.data' },
      allowPrivateUrls: true,
      apiKeys: [],
      llm: { baseUrl: undefined, model: undefined, maxRetries: 3, timeoutMs: 30_000, concurrency: 4 },
    });
  });

  it('refuses private URLs by default in hosted mode, and ALLOW_PRIVATE_URLS wins over the mode', () => {
    expect(loadConfig({ MODE: 'hosted' }).allowPrivateUrls).toBe(false);
    expect(loadConfig({ MODE: 'hosted', ALLOW_PRIVATE_URLS: 'true' }).allowPrivateUrls).toBe(true);
    expect(loadConfig({ MODE: 'local', ALLOW_PRIVATE_URLS: 'no' }).allowPrivateUrls).toBe(false);
  });

  it('reads EGRESS_ALLOW as ranges, addresses, names and *.domains, empty by default', () => {
    expect(loadConfig({}).egressAllow).toEqual({ cidrs: [], hosts: [], suffixes: [] });
    const allow = loadConfig({
      MODE: 'hosted',
      EGRESS_ALLOW: ' 10.20.0.0/16, 127.0.0.2 ,fd00::/8, Wiki.Corp.Example, *.staging.example, ::ffff:10.30.0.0/112 ',
    }).egressAllow;
    expect(allow).toEqual({
      cidrs: ['10.20.0.0/16', '127.0.0.2/32', 'fd00::/8', '10.30.0.0/16'],
      hosts: ['wiki.corp.example'],
      suffixes: ['.staging.example'],
    });
  });

  it.each(['10.0.0.0/33', 'not a host', '*.', 'http://wiki/', '999.1.1.1', '10/8', '0x7f000001/32', '127.1', '10.1.2.3/8'])(
    'stops the start on a bad EGRESS_ALLOW entry (%s), naming the variable',
    (entry) => {
      expect(failureOf({ EGRESS_ALLOW: `10.0.0.0/8,${entry}` })).toMatch(/EGRESS_ALLOW: .*is neither a CIDR/);
    },
  );

  it('bounds pages: pixels per capture, renderer memory, and says how Chromium is sandboxed', () => {
    expect(loadConfig({}).browser).toMatchObject({ maxPixels: 50_000_000, pageMemoryLimitMb: 1024, sandbox: 'auto', runAsUser: 'nobody' });
    expect(failureOf({ SCREENSHOT_MAX_PIXELS: '10' })).toMatch(/SCREENSHOT_MAX_PIXELS: must be at least/);
    expect(failureOf({ CHROMIUM_SANDBOX: 'maybe' })).toMatch(/CHROMIUM_SANDBOX: must be auto, on or off/);
    expect(loadConfig({ TZ: 'Europe/Paris', REDIS_URL: 'redis://secret@r:6379', OPENAI_API_KEY: 'sk-x' }).browser.env).toEqual({
      TZ: 'Europe/Paris',
    });
  });

  it('treats blank URL variables (KEY= in an env file) as unset', () => {
    const config = loadConfig({ OPENAI_BASE_URL: '', S3_ENDPOINT: '  ', PUBLIC_BASE_URL: '', SMTP_URL: '' });
    expect(config.llm.baseUrl).toBeUndefined();
    expect(config.storage.s3.endpoint).toBeUndefined();
    expect(config.publicBaseUrl).toBeUndefined();
    expect(config.smtp.url).toBeUndefined();
  });

  it('reads durations with units and bare seconds', () => {
    const config = loadConfig({ JOB_RETENTION: '90m', PARSE_TIMEOUT: '45', SHUTDOWN_TIMEOUT: '1500ms' });
    expect(config.jobRetentionMs).toBe(90 * 60_000);
    expect(config.llm.timeoutMs).toBe(45_000);
    expect(config.shutdownTimeoutMs).toBe(1500);
  });

  it('strips the trailing slash of PUBLIC_BASE_URL so image URLs join cleanly', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://shots.example.com/' }).publicBaseUrl).toBe('https://shots.example.com');
  });

  it.each([
    [{ MODE: 'cloud' }, 'MODE: must be local or hosted'],
    [{ ROLE: 'scheduler' }, 'ROLE: must be one of all, gateway, screenshot-worker, parse-worker'],
    [{ HTTP_ADDR: 'localhost' }, 'HTTP_ADDR: "localhost" is not host:port or :port'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL: must be a URL starting with redis:// or rediss://'],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL: must be a URL starting with redis:// or rediss://'],
    [{ OPENAI_BASE_URL: 'localhost:8080/v1' }, 'OPENAI_BASE_URL: must be a URL starting with http:// or https://'],
    [{ S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT: must be a URL starting with http:// or https://'],
    [{ QUEUE_PREFIX: 'a b' }, 'QUEUE_PREFIX: must be 1-64 letters'],
    [{ JOB_RETENTION: 'forever' }, 'JOB_RETENTION: "forever" is not a duration'],
    [{ SCREENSHOT_CONCURRENCY: '0' }, 'SCREENSHOT_CONCURRENCY: must be at least 1'],
    [{ PARSE_MAX_RETRIES: '2.5' }, 'PARSE_MAX_RETRIES: must be a whole number'],
    [{ STORAGE_DRIVER: 'gcs' }, 'STORAGE_DRIVER: must be fs or s3'],
    [{ ALLOW_PRIVATE_URLS: 'maybe' }, 'ALLOW_PRIVATE_URLS: must be true or false'],
    [{ SMTP_URL: 'https://mail.example.com' }, 'SMTP_URL: must be a URL starting with smtp:// or smtps://'],
  ])('names the bad variable: %j', (env, message) => {
    expect(failureOf(env)).toContain(message);
  });

  it('lists every bad variable at once', () => {
    const message = failureOf({ MODE: 'cloud', REDIS_URL: 'nope', PARSE_CONCURRENCY: '1000' });
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('MODE:');
    expect(message).toContain('REDIS_URL:');
    expect(message).toContain('PARSE_CONCURRENCY: must be at most 32');
  });
});
