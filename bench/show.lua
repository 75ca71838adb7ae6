-- show: one random published post with its body, tags and comments, as an
-- anonymous visitor reads it.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local requests = {}

function init(args)
  common.seed()
  for i, id in ipairs(common.lines("ids.txt")) do
    requests[i] = wrk.format("GET", "/api/v1/posts/" .. id, common.headers())
  end
end

function request()
  return common.pick(requests)
end
