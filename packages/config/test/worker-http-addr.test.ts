import { ConfigError, loadConfig } from '../src/config';

describe('WORKER_HTTP_ADDR', () => {
  it('defaults to :9464 in a worker-only process', () => {
    expect(loadConfig({ ROLE: 'screenshot-worker' }).workerHttp).toEqual({ host: '', port: 9464 });
    expect(loadConfig({ ROLE: 'parse-worker', WORKER_HTTP_ADDR: '127.0.0.1:9000' }).workerHttp).toEqual({ host: '127.0.0.1', port: 9000 });
  });

  it('is off with ROLE=all or gateway (the gateway serves health and metrics) and when set to off', () => {
    expect(loadConfig({}).workerHttp).toBeUndefined();
    expect(loadConfig({ ROLE: 'gateway' }).workerHttp).toBeUndefined();
    expect(loadConfig({ ROLE: 'parse-worker', WORKER_HTTP_ADDR: 'off' }).workerHttp).toBeUndefined();
  });

  it('names the variable when the address is malformed', () => {
    expect(() => loadConfig({ ROLE: 'parse-worker', WORKER_HTTP_ADDR: 'localhost' })).toThrow(ConfigError);
    expect(() => loadConfig({ ROLE: 'parse-worker', WORKER_HTTP_ADDR: 'localhost' })).toThrow(/WORKER_HTTP_ADDR: "localhost" is not host:port, :port or off/);
  });
});
