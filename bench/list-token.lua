-- list-token: the first page of the post list read with a token, which the
-- cache of anonymous reads never serves: it shows what the cache costs the
-- reads it passes by (compare a run with BENCH_CACHE_OFF=1).
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local requests = {}

function init(args)
  common.seed()
  for i, token in ipairs(common.lines("tokens.txt")) do
    requests[i] = wrk.format("GET", "/api/v1/posts", common.headers(token))
  end
end

function request()
  return common.pick(requests)
end
