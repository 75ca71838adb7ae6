-- v2-cursor: a version 2 page starting at a random position of the whole
-- list, with a token. The cursors are made by the harness from random
-- (created_at, id) pairs of the store, in the service's own format.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local requests = {}

function init(args)
  common.seed()
  local tokens = common.lines("tokens.txt")
  for i, cursor in ipairs(common.lines("cursors.txt")) do
    requests[i] = wrk.format("GET", "/api/v2/posts?cursor=" .. cursor, common.headers(common.pick(tokens)))
  end
end

function request()
  return common.pick(requests)
end
