import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Secrets never reach here: callers log ids, never bodies or keys. */
export function createLogger(options: { level: string; service: string }): Logger {
  return pino({
    level: options.level,
    base: { service: options.service },
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.api_key'], remove: true },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
