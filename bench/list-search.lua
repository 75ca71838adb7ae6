-- list-search: the first page of the public list filtered by a search
-- (BENCH_SEARCH_WORD, encoded for the query string; the harness runs it
-- once for each of BENCH_SEARCH_WORDS, or for each search it draws by
-- class from the seeded titles).
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

wrk.method = "GET"
wrk.path = "/api/v1/posts?search=" .. common.env("BENCH_SEARCH_WORD")
wrk.headers = common.headers()
