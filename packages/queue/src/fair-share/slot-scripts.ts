/**
 * Lua for the per-key slot accounting (fair share). Each runs atomically in Redis, so concurrent
 * enqueues and workers of every process see one consistent count.
 *
 * KEYS[1] running: ZSET job id -> lease expiry (ms); KEYS[2] parked: ZSET job id -> arrival number;
 * KEYS[3] the counter arrival numbers come from
 * ARGV: job id, cap, now (ms), lease (ms), parked-set TTL (ms)
 *
 * Both scripts first drop expired leases (a crashed worker's or gateway's slot), then hand free
 * slots to the oldest parked jobs: a handed job gets the slot (a lease) before it is promoted, so
 * no newcomer can take it meanwhile. They return { admitted (0/1), place among the parked (0-based,
 * -1 when not parked), handed ids... }.
 */
const HAND_OVER = `
local running, parked, arrivals = KEYS[1], KEYS[2], KEYS[3]
local id, cap, now, lease, parkedTtl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', running, '-inf', now)
local handed = {}
local function handOver()
  local free = cap - redis.call('ZCARD', running)
  while free > 0 do
    local head = redis.call('ZRANGE', parked, 0, 0)
    if #head == 0 then break end
    redis.call('ZREM', parked, head[1])
    redis.call('ZADD', running, now + lease, head[1])
    handed[#handed + 1] = head[1]
    free = free - 1
  end
end
local function expire()
  if redis.call('EXISTS', running) == 1 then redis.call('PEXPIRE', running, lease * 2) end
  if redis.call('EXISTS', parked) == 1 then
    redis.call('PEXPIRE', parked, parkedTtl)
    redis.call('PEXPIRE', arrivals, parkedTtl)
  end
end
`;

/**
 * Takes a slot for the job, or parks it. A job already holding a slot (reserved at enqueue, handed
 * over, or re-picked after a stall) keeps it with a fresh lease. Parked jobs go first: a newcomer
 * is admitted only when no older job of the key is parked.
 */
export const ADMIT_SCRIPT = `${HAND_OVER}
local admitted = 0
if redis.call('ZSCORE', running, id) then
  redis.call('ZADD', running, now + lease, id)
  admitted = 1
else
  if not redis.call('ZSCORE', parked, id) then redis.call('ZADD', parked, redis.call('INCR', arrivals), id) end
  handOver()
  if redis.call('ZSCORE', running, id) then admitted = 1 end
end
expire()
local place = redis.call('ZRANK', parked, id)
if not place then place = -1 end
return { admitted, place, unpack(handed) }
`;

/** Gives the job's slot back (or its parked place) and hands free slots to parked jobs. */
export const RELEASE_SCRIPT = `${HAND_OVER}
redis.call('ZREM', running, id)
redis.call('ZREM', parked, id)
handOver()
expire()
return { 0, -1, unpack(handed) }
`;

/** Extends the lease of a slot the job still holds (ARGV: job id, lease expiry, key TTL ms). */
export const RENEW_SCRIPT = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0
`;
