-- list-deep: a random page between the first and the last of the public
-- list (BENCH_LAST_PAGE), the offset pagination a crawler walks.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local requests = {}

function init(args)
  common.seed()
  local last = tonumber(common.env("BENCH_LAST_PAGE"))
  -- Requests are made once: building them in request() would spend the CPU
  -- the server shares with wrk.
  for i = 1, math.min(last, 10000) do
    local page = last <= 10000 and i or math.random(last)
    requests[i] = wrk.format("GET", "/api/v1/posts?page=" .. page, common.headers())
  end
end

function request()
  return common.pick(requests)
end
