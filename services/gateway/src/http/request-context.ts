/** What the gateway attaches to a request as it passes through the middleware. */
export interface RequestAuth {
  /** Stable id of the API key (hash prefix); owner of jobs and watches. */
  keyId: string;
  plan: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Request {
      auth?: RequestAuth;
      /**
       * Hosted mode, on routes that count in their handler: counts one request against the key's
       * rate limit (sets the rate-limit headers; throws RateLimited when over). Absent: nothing to count.
       */
      countRequest?: () => Promise<void>;
      /** `Date.now()` when the gateway received the request (set first thing). */
      receivedAt: number;
    }
  }
}

export {};
