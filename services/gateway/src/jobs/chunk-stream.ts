import type { Response } from 'express';

/** Server-Sent Events (`data: <json>` and a blank line) or NDJSON (one JSON value per line). */
export type StreamFraming = 'sse' | 'ndjson';

/** NDJSON when the client asks for it in Accept; SSE otherwise. */
export function streamFramingOf(accept: string | undefined): StreamFraming {
  return accept !== undefined && /\bapplication\/(x-)?ndjson\b/i.test(accept) ? 'ndjson' : 'sse';
}

export interface ChunkStream {
  write(chunk: unknown): void;
  /** Writes the last chunk and ends the response. */
  end(last: unknown): void;
}

/** An SSE comment every so often keeps proxies from closing a stream that waits on a slow model. */
const HEARTBEAT_MS = 15_000;

/**
 * Starts a streamed 200 response of JSON chunks. JSON text never holds a raw newline, so each
 * chunk is exactly one SSE `data:` line or one NDJSON line.
 */
export function openChunkStream(res: Response, framing: StreamFraming): ChunkStream {
  res.status(200);
  res.setHeader('Content-Type', framing === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  // nginx and similar proxies buffer responses unless told otherwise.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  const frame = (value: unknown) => (framing === 'sse' ? `data: ${JSON.stringify(value)}\n\n` : `${JSON.stringify(value)}\n`);
  const heartbeat =
    framing === 'sse'
      ? setInterval(() => {
          if (!res.writableEnded) res.write(': keep-alive\n\n');
        }, HEARTBEAT_MS)
      : undefined;
  res.once('close', () => clearInterval(heartbeat));
  return {
    write(chunk) {
      if (!res.writableEnded) res.write(frame(chunk));
    },
    end(last) {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end(frame(last));
    },
  };
}
