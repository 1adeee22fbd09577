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

-- The one-line summary of report.lua (paths are from the repository's
-- root, where load.sh runs wrk).
dofile("crates/web/bench/report.lua")
