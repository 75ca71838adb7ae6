-- show-cached: one of 1,000 random published posts with its body, tags and
-- comments, as an anonymous visitor reads it, with the cache of anonymous
-- reads on, while the harness creates a post a second in the background.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local requests = {}

function init(args)
  common.seed()
  for i, id in ipairs(common.lines("ids.txt")) do
    if i > 1000 then break end
    requests[i] = wrk.format("GET", "/api/v1/posts/" .. id, common.headers())
  end
end

function request()
  return common.pick(requests)
end
