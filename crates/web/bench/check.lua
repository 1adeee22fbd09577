-- wrk script: POST /api/check with a robots.txt read from a file (ASCII),
-- one crawler and one URL. See BENCHMARKS.md for the command.
local path = os.getenv("ROBOTS") or "../shared/corpus/real/bharath__trendyol.com.txt"
local file = assert(io.open(path, "rb"))
local robots = file:read("*a")
file:close()

local function escape(s)
  return (s:gsub('[%c"\\]', function(c)
    return string.format("\\u%04x", string.byte(c))
  end))
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"robots":"' .. escape(robots)
  .. '","agents":["Googlebot"],"urls":["https://www.trendyol.com/sepet?utm=1"]}'

function done(summary, latency, requests)
  io.write(string.format("requests/s %.0f  p50 %.2f ms  p99 %.2f ms  errors %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read
      + summary.errors.write + summary.errors.timeout))
end
