import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { answerClientError } from '../src/http/client-error';

/** Sends raw bytes and returns everything the server answers before it closes the connection. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser rejects', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answer an unknown method with the JSON error body and close the connection', async () => {
    const answer = await raw(port, 'FOO /v1/screenshots HTTP/1.1\r\nHost: x\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain('Content-Type: application/json; charset=utf-8');
    expect(head).toContain('Connection: close');
    expect(head).toContain('X-Content-Type-Options: nosniff');
    expect(head).toContain('Referrer-Policy: no-referrer');
    expect(JSON.parse(body)).toEqual({ success: false, error: 'Malformed HTTP request', code: 'INVALID_REQUEST' });
  });

  it('answer an oversized head with 431, and a HEAD request without a body', async () => {
    const long = `x=${'q'.repeat(20_000)}`;
    const get = await raw(port, `GET /v1/health?${long} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(get).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(get.split('\r\n\r\n')[1])).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
    const head = await raw(port, `HEAD /v1/health?${long} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toContain('Content-Length: 0\r\n');
    expect(head.endsWith('\r\n\r\n')).toBe(true);
  });
});
