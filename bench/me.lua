-- me: the current user, with one of several tokens; what authenticating a
-- request costs, since the route does little else.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local requests = {}

function init(args)
  common.seed()
  for i, token in ipairs(common.lines("tokens.txt")) do
    requests[i] = wrk.format("GET", "/api/v1/user", common.headers(token))
  end
end

function request()
  return common.pick(requests)
end
