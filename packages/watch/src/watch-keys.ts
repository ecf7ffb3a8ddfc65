/**
 * Where watches live in Redis, all under QUEUE_PREFIX. The one place that knows the layout; the
 * gateway (routes) and the parse worker (checks) both go through `WatchStore`.
 *
 *   <prefix>:watch:<id>                 hash: the watch, one JSON-encoded value per field
 *   <prefix>:watch:<id>:results         list: check results, newest first, bounded
 *   <prefix>:watch:<id>:snapshot        string: last compared content {hash, content, present}
 *   <prefix>:watch:<id>:lock            string: held while a check runs
 *   <prefix>:watches                    sorted set: every watch id by creation time
 *   <prefix>:watches:owner:<keyId>      sorted set: one API key's watch ids (hosted mode)
 */
export function watchKeys(prefix: string, id: string) {
  const base = `${prefix}:watch:${id}`;
  return {
    watch: base,
    results: `${base}:results`,
    snapshot: `${base}:snapshot`,
    lock: `${base}:lock`,
  };
}

export function watchIndexKey(prefix: string, owner?: string): string {
  return owner === undefined ? `${prefix}:watches` : `${prefix}:watches:owner:${owner}`;
}

/**
 * BullMQ job-scheduler id of a watch's schedule on the parse queue. No colon in it: BullMQ reads
 * ids with colons as legacy repeatable-job keys in places.
 */
export function watchSchedulerId(id: string): string {
  return `watch-${id}`;
}
