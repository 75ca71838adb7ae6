-- create: a new published post with two existing tags, by one of several
-- users. Titles differ, as real ones do, so that each slug is new.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

local tokens, tags, run, count = nil, nil, 0, 0

local body = string.rep("Benchmarks write posts of a few paragraphs, so that the body "
  .. "is stored, its excerpt computed and the answer carries both. ", 5)

function init(args)
  common.seed()
  tokens, tags = common.lines("tokens.txt"), common.lines("tags.txt")
  -- run tells this wrk process's titles from those of earlier ones (the
  -- warm-up writes too).
  run = math.random(1, 1e9)
end

function request()
  count = count + 1
  local a = math.random(#tags)
  local b = math.random(#tags - 1)
  if b >= a then b = b + 1 end
  local json = string.format(
    '{"title":"Benchmark post %d %d-%d","body":"%s","status":"published","tags":[%s,%s]}',
    run, thread_number or 0, count, body, tags[a], tags[b])
  local headers = common.headers(common.pick(tokens))
  headers["Content-Type"] = "application/json"
  return wrk.format("POST", "/api/v1/posts", headers, json)
end
