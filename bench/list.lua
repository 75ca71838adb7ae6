-- list: the first page of the public post list, 15 posts with an exact
-- meta.total, as an anonymous visitor sees it.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

wrk.method = "GET"
wrk.path = "/api/v1/posts"
wrk.headers = common.headers()
