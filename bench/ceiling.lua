-- ceiling: a fixed 1 KiB JSON answer through the whole middleware chain
-- (BENCH_ENDPOINTS=1), the most the HTTP layer can serve on this machine.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

wrk.method = "GET"
wrk.path = "/bench/ceiling"
wrk.headers = common.headers()
