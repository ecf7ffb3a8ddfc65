import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Secrets never reach here: callers log ids, never bodies or keys. Lines go
 * to stdout unless a `destination` stream is given (tests read what was logged).
 */
export function createLogger(options: { level: string; service: string }, destination?: pino.DestinationStream): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level,
    base: { service: options.service },
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.api_key'], remove: true },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(settings, destination) : pino(settings);
}
