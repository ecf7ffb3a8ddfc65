import { randomUUID } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';
import { WATCH_LIMITS, type WatchRecord, type WatchResultRecord } from '@sitelens/contracts';
import { watchIndexKey, watchKeys } from './watch-keys';

/** The content a check compared, kept whole (results keep a bounded copy) for the next diff. */
export interface WatchSnapshot {
  hash: string;
  content: string;
  /** False when the page or the selected element was not there. */
  present: boolean;
}

export interface WatchPage {
  total: number;
  watches: WatchRecord[];
}

// Field updates apply only to a watch that still exists, so a check finishing after a delete
// cannot bring it back half-made.
const UPDATE_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1`;

// KEYS: watch, results, snapshot. ARGV: result JSON, history size, snapshot JSON or '', then
// watch field/value pairs. Returns the results pushed out of the history, or nil when the
// watch is gone.
const RECORD_RESULT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local size = tonumber(ARGV[2])
redis.call('LPUSH', KEYS[2], ARGV[1])
local dropped = redis.call('LRANGE', KEYS[2], size, -1)
redis.call('LTRIM', KEYS[2], 0, size - 1)
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3]) end
if #ARGV > 3 then redis.call('HSET', KEYS[1], unpack(ARGV, 4)) end
return dropped`;

// KEYS: watch, index, owner index. ARGV: score, id, cap (0: none), then watch field/value pairs.
// Counting and adding in one script keeps the cap exact however many creates run at once.
const CREATE_CAPPED = `
local cap = tonumber(ARGV[3])
if cap > 0 and redis.call('ZCARD', KEYS[3]) >= cap then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[2])
return 1`;

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Hash field/value pairs, each value JSON-encoded; undefined fields are left out. */
function encode(fields: Partial<WatchRecord>): string[] {
  return Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [name, JSON.stringify(value)]));
}

function decode(hash: Record<string, string>): WatchRecord | undefined {
  if (!hash.id) return undefined;
  const record: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(hash)) {
    try {
      record[name] = JSON.parse(value);
    } catch {
      record[name] = value;
    }
  }
  return record as unknown as WatchRecord;
}

function parseResults(items: string[]): WatchResultRecord[] {
  return items.flatMap((item) => {
    try {
      return [JSON.parse(item) as WatchResultRecord];
    } catch {
      return [];
    }
  });
}

async function exec(multi: ChainableCommander): Promise<unknown[]> {
  const replies = (await multi.exec()) ?? [];
  const failed = replies.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
  return replies.map(([, value]) => value);
}

/** Watches, their bounded result history and check locks in Redis (see `watch-keys.ts`). */
export class WatchStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly historySize: number = WATCH_LIMITS.historySize,
  ) {}

  private keys(id: string) {
    return watchKeys(this.prefix, id);
  }

  /**
   * Stores a new watch. With `maxPerOwner`, an owned watch is stored only while its owner has fewer
   * watches than that (checked and added atomically); false when the owner is at the cap.
   */
  async create(watch: WatchRecord, options: { maxPerOwner?: number } = {}): Promise<boolean> {
    const score = Date.parse(watch.created_at);
    if (watch.owner !== undefined) {
      const keys = [this.keys(watch.id).watch, watchIndexKey(this.prefix), watchIndexKey(this.prefix, watch.owner)];
      const cap = String(options.maxPerOwner ?? 0);
      return (await this.redis.eval(CREATE_CAPPED, 3, ...keys, String(score), watch.id, cap, ...encode(watch))) === 1;
    }
    await exec(
      this.redis
        .multi()
        .hset(this.keys(watch.id).watch, ...encode(watch))
        .zadd(watchIndexKey(this.prefix), score, watch.id),
    );
    return true;
  }

  async get(id: string): Promise<WatchRecord | undefined> {
    return decode(await this.redis.hgetall(this.keys(id).watch));
  }

  /** Oldest first. `owner` narrows to one API key's watches; without it, every watch. */
  async list(owner: string | undefined, page: { offset: number; limit: number }): Promise<WatchPage> {
    const index = watchIndexKey(this.prefix, owner);
    const [total, ids] = await Promise.all([this.redis.zcard(index), this.redis.zrange(index, page.offset, page.offset + page.limit - 1)]);
    if (ids.length === 0) return { total, watches: [] };
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys(id).watch);
    const hashes = (await exec(pipeline)) as Record<string, string>[];
    return { total, watches: hashes.map(decode).filter((watch): watch is WatchRecord => watch !== undefined) };
  }

  /** Sets fields of an existing watch; false when it does not exist (any more). */
  async update(id: string, fields: Partial<WatchRecord>): Promise<boolean> {
    const args = encode(fields);
    if (args.length === 0) return (await this.redis.exists(this.keys(id).watch)) === 1;
    return (await this.redis.eval(UPDATE_IF_EXISTS, 1, this.keys(id).watch, ...args)) === 1;
  }

  /** Deletes the watch, its results and snapshot; returns the results (their images need removing). */
  async remove(id: string): Promise<WatchResultRecord[] | undefined> {
    const watch = await this.get(id);
    if (!watch) return undefined;
    const keys = this.keys(id);
    const results = parseResults(await this.redis.lrange(keys.results, 0, -1));
    const multi = this.redis.multi().del(keys.watch, keys.results, keys.snapshot, keys.lock).zrem(watchIndexKey(this.prefix), id);
    if (watch.owner !== undefined) multi.zrem(watchIndexKey(this.prefix, watch.owner), id);
    await exec(multi);
    return results;
  }

  /** Newest first. */
  async results(id: string, limit: number = this.historySize): Promise<WatchResultRecord[]> {
    return parseResults(await this.redis.lrange(this.keys(id).results, 0, Math.max(0, limit - 1)));
  }

  async snapshot(id: string): Promise<WatchSnapshot | undefined> {
    const text = await this.redis.get(this.keys(id).snapshot);
    return text ? (JSON.parse(text) as WatchSnapshot) : undefined;
  }

  /**
   * Stores a check's result at the head of the history (trimming it), the snapshot it compared
   * (when it got one) and watch fields, in one step. Returns the results trimmed away, or
   * undefined when the watch was deleted meanwhile (nothing is written then).
   */
  async recordResult(
    id: string,
    result: WatchResultRecord,
    update: { snapshot?: WatchSnapshot; fields?: Partial<WatchRecord> } = {},
  ): Promise<WatchResultRecord[] | undefined> {
    const keys = this.keys(id);
    const dropped = (await this.redis.eval(
      RECORD_RESULT,
      3,
      keys.watch,
      keys.results,
      keys.snapshot,
      JSON.stringify(result),
      String(this.historySize),
      update.snapshot ? JSON.stringify(update.snapshot) : '',
      ...encode(update.fields ?? {}),
    )) as string[] | null;
    return dropped === null ? undefined : parseResults(dropped);
  }

  /** Takes the watch's check lock for `ttlMs`; undefined when another check holds it. */
  async lock(id: string, ttlMs: number): Promise<string | undefined> {
    const token = randomUUID();
    const taken = await this.redis.set(this.keys(id).lock, token, 'PX', ttlMs, 'NX');
    return taken === 'OK' ? token : undefined;
  }

  async unlock(id: string, token: string): Promise<void> {
    await this.redis.eval(UNLOCK, 1, this.keys(id).lock, token);
  }
}
