-- list-search: the first page of the public list filtered by a word that
-- about 1% of the titles contain (BENCH_SEARCH_WORD).
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

wrk.method = "GET"
wrk.path = "/api/v1/posts?search=" .. common.env("BENCH_SEARCH_WORD")
wrk.headers = common.headers()
