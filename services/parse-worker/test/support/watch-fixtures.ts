/** Local stand-ins a watch talks to in tests: a webhook receiver, an SMTP server, and the API. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

export interface HookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Status codes for the next requests, in order; 200 once they are used up. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  const planned: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const answered = planned.shift() ?? 200;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    failNext: (...statuses) => planned.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface MailSink {
  url: string;
  mails: string[];
  close(): Promise<void>;
}

/** A plain SMTP server (no TLS, no auth) that keeps every message it is given. */
export async function startMailSink(): Promise<MailSink> {
  const mails: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (data += chunk));
      stream.on('end', () => {
        mails.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Any method, no body (as the Supacrawler clients send pause/resume/check/delete), JSON back. */
export async function call(method: string, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers } });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as any };
}
