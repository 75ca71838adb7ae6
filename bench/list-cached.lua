-- list-cached: the first page of the public post list, as an anonymous
-- visitor sees it, with the cache of anonymous reads on, while the harness
-- creates a post a second in the background (each one evicts every list).
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

wrk.method = "GET"
wrk.path = "/api/v1/posts"
wrk.headers = common.headers()
