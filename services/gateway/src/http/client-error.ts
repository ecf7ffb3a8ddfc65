import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@sitelens/contracts';
import { SECURITY_HEADER_LINES } from './security-headers';

/**
 * Requests Node's HTTP server rejects before Express sees them (an unknown method, a malformed
 * header line, a head larger than the server accepts, a head that never finishes) get the JSON error body every other error
 * gets, instead of Node's bare `400 Bad Request`; then the connection closes.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  // A reset peer cannot read an answer; a half-written response cannot take another one.
  const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, appError] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, new AppError('INVALID_REQUEST', 'Request headers (or URL) are too large')]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, new AppError('TIMEOUT', 'The request was not received in time')]
        : [400, new AppError('INVALID_REQUEST', 'Malformed HTTP request')];
  // A HEAD request gets the head alone (its request line opens the packet the parser choked on).
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  const body = head ? '' : JSON.stringify(appError.toBody());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      SECURITY_HEADER_LINES +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
