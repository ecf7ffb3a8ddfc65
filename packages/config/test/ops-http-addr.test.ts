import { ConfigError, loadConfig } from '../src/config';

describe('OPS_HTTP_ADDR', () => {
  it('defaults to :9464 in a worker-only process', () => {
    expect(loadConfig({ ROLE: 'screenshot-worker' }).opsHttp).toEqual({ host: '', port: 9464 });
    expect(loadConfig({ ROLE: 'parse-worker', OPS_HTTP_ADDR: '127.0.0.1:9000' }).opsHttp).toEqual({ host: '127.0.0.1', port: 9000 });
  });

  it('serves the gateway of hosted mode too, so /metrics stays off the public port', () => {
    expect(loadConfig({ MODE: 'hosted', ROLE: 'gateway' }).opsHttp).toEqual({ host: '', port: 9464 });
    expect(loadConfig({ MODE: 'hosted' }).opsHttp).toEqual({ host: '', port: 9464 });
    expect(loadConfig({ MODE: 'hosted', ROLE: 'gateway', OPS_HTTP_ADDR: '127.0.0.1:9100' }).opsHttp).toEqual({
      host: '127.0.0.1',
      port: 9100,
    });
  });

  it('is off for a local gateway (ROLE=all or gateway: /metrics is on the API port) and when set to off', () => {
    expect(loadConfig({}).opsHttp).toBeUndefined();
    expect(loadConfig({ ROLE: 'gateway' }).opsHttp).toBeUndefined();
    expect(loadConfig({ ROLE: 'parse-worker', OPS_HTTP_ADDR: 'off' }).opsHttp).toBeUndefined();
    expect(loadConfig({ MODE: 'hosted', OPS_HTTP_ADDR: '' }).opsHttp).toBeUndefined();
  });

  it('names the variable when the address is malformed', () => {
    expect(() => loadConfig({ ROLE: 'parse-worker', OPS_HTTP_ADDR: 'localhost' })).toThrow(ConfigError);
    expect(() => loadConfig({ ROLE: 'parse-worker', OPS_HTTP_ADDR: 'localhost' })).toThrow(
      /OPS_HTTP_ADDR: "localhost" is not host:port, :port or off/,
    );
  });
});

describe('WORKER_HTTP_ADDR (deprecated name of OPS_HTTP_ADDR)', () => {
  it('is still read when OPS_HTTP_ADDR is unset', () => {
    expect(loadConfig({ ROLE: 'parse-worker', WORKER_HTTP_ADDR: '127.0.0.1:9000' }).opsHttp).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(loadConfig({ ROLE: 'parse-worker', WORKER_HTTP_ADDR: 'off' }).opsHttp).toBeUndefined();
  });

  it('gives way to OPS_HTTP_ADDR', () => {
    const config = loadConfig({ ROLE: 'parse-worker', OPS_HTTP_ADDR: '127.0.0.1:9001', WORKER_HTTP_ADDR: '127.0.0.1:9000' });
    expect(config.opsHttp).toEqual({ host: '127.0.0.1', port: 9001 });
    expect(loadConfig({ ROLE: 'parse-worker', OPS_HTTP_ADDR: 'off', WORKER_HTTP_ADDR: '127.0.0.1:9000' }).opsHttp).toBeUndefined();
  });

  it('names itself when malformed', () => {
    expect(() => loadConfig({ ROLE: 'parse-worker', WORKER_HTTP_ADDR: 'localhost' })).toThrow(
      /WORKER_HTTP_ADDR: "localhost" is not host:port, :port or off/,
    );
  });
});
