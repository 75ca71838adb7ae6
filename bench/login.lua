-- login: a seeded user logs in with the right password; bcrypt bounds it.
-- The users are drawn from BENCH_LOGIN_FIRST to BENCH_USERS, above the users
-- whose tokens the other scenarios hold, since a login deletes the user's
-- earlier tokens.
--
-- The server shares the cores among all the logins in flight, so at any
-- moment each connection's request is partly hashed. A run's first round
-- completes little, and the work in flight when it stops is lost: over 15 s
-- that is about a fifth of the rate. Besides wrk's rate the script therefore
-- reports the steady rate, counted over the whole seconds after the first
-- round (see common.lua), which is what the bcrypt ceiling compares with.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local first, last, password, stagger, spread

-- round is how long the server takes to hash once for every connection,
-- connections x check time / cores, in milliseconds.
local function round()
  return tonumber(common.env("BENCH_CONNECTIONS")) * tonumber(common.env("BENCH_HASH_MS"))
    / tonumber(common.env("BENCH_CORES"))
end

-- The steady rate skips the first round and the second the run starts in.
common.skip = function() return math.ceil(round() / 1000) + 1 end

-- completed counts the answers by the wall-clock second they arrived in.
completed = {}

local count_response = response

function response(status, headers, body)
  count_response(status, headers, body)
  local now = os.time()
  completed[now] = (completed[now] or 0) + 1
end

function init(args)
  common.seed()
  first = tonumber(common.env("BENCH_LOGIN_FIRST"))
  last = tonumber(common.env("BENCH_USERS"))
  password = common.env("BENCH_PASSWORD")
  -- Started together, the connections' logins would finish together, and
  -- so would every later round, so that the answers would come in bursts.
  -- Spreading the first requests over one round keeps them even; one
  -- request per core in flight keeps the cores busy, so the spread costs no
  -- throughput.
  stagger = tonumber(common.env("BENCH_CONNECTIONS")) / tonumber(common.env("BENCH_THREADS"))
  spread = math.floor(round())
end

-- delay holds back the first request of each of the thread's connections by
-- up to one round, and no later one.
function delay()
  if stagger > 0 then
    stagger = stagger - 1
    return math.random(0, spread)
  end
  return 0
end

function request()
  local headers = common.headers()
  headers["Content-Type"] = "application/json"
  local body = string.format('{"email":"user%d@example.com","password":"%s"}', math.random(first, last), password)
  return wrk.format("POST", "/api/v1/login", headers, body)
end
