import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, RateLimited, isAppError } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';

/** Body-parser and other HTTP-layer errors carry a `type`; map the ones clients cause. */
function fromHttpLayer(error: unknown): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status } = error as { type?: string; status?: number };
  if (type === 'entity.parse.failed') return new AppError('INVALID_REQUEST', 'Malformed JSON in request body');
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new AppError('INVALID_REQUEST', 'Unsupported request body encoding');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError('INVALID_REQUEST', 'Invalid request');
  }
  return undefined;
}

/** Normalises anything thrown into an AppError; unknown errors become a generic 500. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  return fromHttpLayer(error) ?? new AppError('INTERNAL', 'Internal server error');
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const appError = toAppError(error);
    if (appError.code === 'INTERNAL' || appError.status >= 500) {
      logger.error({ err: error, reqId: res.locals.requestId, path: req.path }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (appError instanceof RateLimited) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    res.status(appError.status).json(appError.toBody());
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
};
