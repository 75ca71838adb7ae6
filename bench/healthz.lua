-- healthz: GET /healthz, which touches no store: the yardstick the search
-- and deep-page targets are also given in, as a share of it in the same run.
local common = dofile((os.getenv("BENCH_LUA") or "bench") .. "/common.lua")

wrk.method = "GET"
wrk.path = "/healthz"
wrk.headers = common.headers()
