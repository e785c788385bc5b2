/** The limit counters' Lua scripts (redis-limits.server.ts runs them; window-limits.server.ts has the model). */

// KEYS: one per spec. ARGV: the bucket count, then per spec: kind, limit, bucket ms (a slot: its
// ttl), the amount it needs (a slot: its holders' name prefix) and how many it would take.
// Returns {1, redis ms, per spec: places or holders granted, or a peek's sum} when all fit,
// else {0, spec number (1-based), used, retry ms}.
export const STEP_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local out = {1, now}
for i = 1, #KEYS do
  local base = 1 + (i - 1) * 5
  local kind = ARGV[base + 1]
  local limit = tonumber(ARGV[base + 2])
  local span = tonumber(ARGV[base + 3])
  local want = tonumber(ARGV[base + 5])
  if kind == 'slot' then
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    local held = redis.call('ZCARD', KEYS[i])
    if held >= limit then
      local first = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
      return {0, i, held, math.max(0, tonumber(first[2] or now) - now)}
    end
    out[#out + 1] = math.min(want, limit - held)
  else
    local amount = tonumber(ARGV[base + 4])
    local oldest = math.floor(now / span) - n + 1
    local flat = redis.call('HGETALL', KEYS[i])
    local sum = 0
    local buckets = {}
    for j = 1, #flat, 2 do
      local b = tonumber(flat[j])
      if b < oldest then
        redis.call('HDEL', KEYS[i], flat[j])
      else
        local c = tonumber(flat[j + 1])
        sum = sum + c
        buckets[#buckets + 1] = {b, c}
      end
    end
    local need = 0
    if kind == 'take' and sum + amount > limit then need = sum + amount - limit end
    if kind == 'peek' and sum >= limit then need = sum - limit + 1 end
    if need > 0 then
      table.sort(buckets, function(a, b) return a[1] < b[1] end)
      local freed = 0
      local retry = n * span
      for _, e in ipairs(buckets) do
        freed = freed + e[2]
        if freed >= need then
          retry = (e[1] + n) * span - now
          break
        end
      end
      return {0, i, sum, retry}
    end
    if kind == 'take' then out[#out + 1] = math.max(amount, math.min(want, limit - sum)) else out[#out + 1] = sum end
  end
end
for i = 1, #KEYS do
  local base = 1 + (i - 1) * 5
  local kind = ARGV[base + 1]
  local span = tonumber(ARGV[base + 3])
  local granted = out[i + 2]
  if kind == 'slot' then
    for j = 1, granted do redis.call('ZADD', KEYS[i], now + span, ARGV[base + 4] .. ':' .. j) end
    redis.call('PEXPIRE', KEYS[i], span)
  elseif kind == 'take' then
    redis.call('HINCRBY', KEYS[i], string.format('%d', math.floor(now / span)), granted)
    redis.call('PEXPIRE', KEYS[i], span * (n + 1))
  end
end
return out
`;

// Gives back places taken in a bucket and not used, if the bucket is still in its window.
export const GIVE_BACK_SCRIPT =
  "local v = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') if v >= tonumber(ARGV[2]) then redis.call('HINCRBY', KEYS[1], ARGV[1], -tonumber(ARGV[2])) end return 0";
