-- Shared by every scenario script. The harness (scripts/bench.sh) writes the
-- data files the scenarios draw from into BENCH_DATA and passes the rest in
-- environment variables, since wrk hands a script nothing else.
--
-- Every script counts the answers that are not 2xx in response(), because
-- wrk's own error count takes only statuses above 399, and prints its figures
-- in done() as one line, "BENCH_RESULT {json}", which the harness reads.
local M = {}

local data = os.getenv("BENCH_DATA") or error("BENCH_DATA is not set")

-- env returns a variable the harness must have set.
function M.env(name)
  return os.getenv(name) or error(name .. " is not set")
end

-- lines returns the non-empty lines of a data file.
function M.lines(name)
  local out = {}
  local f = assert(io.open(data .. "/" .. name, "r"))
  for line in f:lines() do
    if line ~= "" then out[#out + 1] = line end
  end
  f:close()
  assert(#out > 0, data .. "/" .. name .. " is empty")
  return out
end

-- pick returns a random element of a list.
function M.pick(list)
  return list[math.random(#list)]
end

-- headers returns wrk's default headers with JSON accepted and, when token
-- is given, a bearer token.
function M.headers(token)
  local h = { ["Accept"] = "application/json" }
  if token then h["Authorization"] = "Bearer " .. token end
  return h
end

-- Each thread gets its own random sequence: seeded alike, both threads would
-- ask for the same ids in the same order, and the store's caches would see
-- half the variety the scenario means.
local threads = {}
local started

function setup(thread)
  started = started or os.time()
  threads[#threads + 1] = thread
  thread:set("thread_number", #threads)
end

function M.seed()
  math.randomseed(os.time() * 1000 + (thread_number or 0) * 7919 + math.floor(os.clock() * 1e6))
  -- LuaJIT's first numbers after seeding are poorly spread.
  for _ = 1, 10 do math.random() end
end

non2xx = 0
statuses = {}
sample = nil

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
    local key = tostring(status)
    statuses[key] = (statuses[key] or 0) + 1
    if sample == nil then sample = string.sub(body or "", 1, 300) end
  end
end

local function quote(s)
  s = string.gsub(s, '[%c"\\]', function(c)
    if c == '"' then return '\\"' end
    if c == "\\" then return "\\\\" end
    return string.format("\\u%04x", string.byte(c))
  end)
  return '"' .. s .. '"'
end

-- steady returns the rate of the answers that arrived in the whole seconds
-- from skip seconds after the start to the end of the run, and the number of
-- those seconds, from the per-second counts of a script that keeps them in
-- a global "completed".
local function steady(per_second, skip)
  local from, to = started + skip, started + tonumber(M.env("BENCH_SECONDS")) - 1
  if to < from then return nil, 0 end
  local n = 0
  for second = from, to do n = n + (per_second[second] or 0) end
  return n / (to - from + 1), to - from + 1
end

function done(summary, latency, requests)
  local bad, by_status, first, per_second = 0, {}, nil, nil
  for _, t in ipairs(threads) do
    bad = bad + (t:get("non2xx") or 0)
    for k, v in pairs(t:get("statuses") or {}) do
      by_status[k] = (by_status[k] or 0) + v
    end
    first = first or t:get("sample")
    local c = t:get("completed")
    if c then
      per_second = per_second or {}
      for k, v in pairs(c) do per_second[k] = (per_second[k] or 0) + v end
    end
  end
  local steady_rps, steady_seconds
  if per_second and M.skip then
    steady_rps, steady_seconds = steady(per_second, M.skip())
  end
  local status_parts = {}
  for k, v in pairs(by_status) do
    status_parts[#status_parts + 1] = quote(k) .. ":" .. v
  end
  local e = summary.errors
  local seconds = summary.duration / 1e6
  local ms = function(us) return string.format("%.3f", us / 1000) end
  io.write("BENCH_RESULT {",
    '"requests":', summary.requests,
    ',"seconds":', string.format("%.3f", seconds),
    ',"rps":', string.format("%.1f", summary.requests / seconds),
    ',"bytes":', summary.bytes,
    ',"p50_ms":', ms(latency:percentile(50)),
    ',"p90_ms":', ms(latency:percentile(90)),
    ',"p99_ms":', ms(latency:percentile(99)),
    ',"max_ms":', ms(latency.max),
    ',"mean_ms":', ms(latency.mean),
    ',"non2xx":', bad,
    ',"statuses":{', table.concat(status_parts, ","), "}",
    ',"socket_errors":{"connect":', e.connect, ',"read":', e.read,
    ',"write":', e.write, ',"timeout":', e.timeout, "}",
    ',"sample":', first and quote(first) or "null",
    ',"steady_rps":', steady_rps and string.format("%.2f", steady_rps) or "null",
    ',"steady_seconds":', steady_seconds or 0,
    "}\n")
end

return M
