import type { Request, RequestHandler, Response } from 'express';
import { PLANS, RateLimited, Unauthorized, type PlanTable } from '@sitelens/contracts';
import type { GatewayDeps } from '../deps';
import type { RouteGuard } from '../http/mount';
import { withRedis } from '../jobs/redis-guard';
import { bearerToken } from './api-keys';
import { KeyResolver, KEY_CACHE_MS, type ResolvedKey } from './key-resolver';
import { ApiKeyStore } from './key-store';
import { PlanRateLimiter, rateLimitHeaders } from './rate-limit';

export interface AuthGuardOptions {
  /** Limits per plan; tests lower them. Defaults to spec section 8. */
  plans?: PlanTable;
  /** How long an issued key's lookup is reused (bounds how late a revocation applies). */
  keyCacheMs?: number;
}

const SUBJECT = 'API key checking';

/**
 * Hosted mode's guard: every route but the public ones (`auth: false`) needs
 * `Authorization: Bearer <key>` and counts against the key's plan. Local mode: no guard at all.
 * Redis trouble is a 503, never a free pass.
 */
export function createAuthGuard(deps: Pick<GatewayDeps, 'config' | 'redis' | 'logger'>, options: AuthGuardOptions = {}): RouteGuard {
  const { config, redis } = deps;
  if (config.mode !== 'hosted') return () => [];

  const plans = options.plans ?? PLANS;
  const resolver = new KeyResolver(config.apiKeys, new ApiKeyStore(redis, config.redis.prefix), options.keyCacheMs ?? KEY_CACHE_MS);
  const limiter = new PlanRateLimiter(redis, config.redis.prefix, plans);
  deps.logger.info({ staticKeys: resolver.staticKeyCount }, 'hosted mode: API keys required, plan limits applied');

  /** The request's key, or Unauthorized. */
  const identify = async (req: Request, res: Response) => {
    const token = bearerToken(req.get('authorization'));
    const key = token ? await withRedis(redis, () => resolver.resolve(token), 3_000, SUBJECT) : undefined;
    if (!key) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new Unauthorized();
    }
    req.auth = { keyId: key.keyId, plan: key.plan };
    return key;
  };

  /** One request against the key's plan; RateLimited when over. */
  const count = async (res: Response, key: ResolvedKey) => {
    const decision = await withRedis(redis, () => limiter.consume(key.keyId, key.plan), 3_000, SUBJECT);
    for (const [name, value] of Object.entries(rateLimitHeaders(decision.binding, Date.now()))) res.setHeader(name, value);
    if (!decision.allowed) {
      const { window, limit } = decision.binding;
      throw new RateLimited(
        `Rate limit exceeded: the ${key.plan} plan allows ${limit} requests per ${window}; retry in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
      );
    }
  };

  const authenticate: RequestHandler = async (req, res, next) => {
    try {
      await count(res, await identify(req, res));
      next();
    } catch (error) {
      next(error);
    }
  };

  const authenticateOnly: RequestHandler = async (req, res, next) => {
    try {
      const key = await identify(req, res);
      req.countRequest = () => count(res, key);
      next();
    } catch (error) {
      next(error);
    }
  };

  return (route) => (route.auth === false ? [] : [route.rateLimit === 'handler' ? authenticateOnly : authenticate]);
}
