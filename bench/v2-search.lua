-- v2-search: the first version 2 page of the posts whose title holds a word
-- that about 1% of the titles contain (BENCH_SEARCH_WORD), with a token, so
-- that the list holds the caller's own drafts as well.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local requests = {}

function init(args)
  common.seed()
  local path = "/api/v2/posts?search=" .. common.env("BENCH_SEARCH_WORD")
  for i, token in ipairs(common.lines("tokens.txt")) do
    requests[i] = wrk.format("GET", path, common.headers(token))
  end
end

function request()
  return common.pick(requests)
end
