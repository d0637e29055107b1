-- The background load of bench/starvation.mjs: each request as the next of many signed-in readers (one
-- `session=<token>` cookie a line in BENCH_COOKIES, from `npm run content -- generate-sessions`), asking for
-- the page at the URL given to wrk (BENCH_MODE=page), or sending reading progress in chapter 1 as the reader's
-- chapter page does (BENCH_MODE=progress: POST /reader/progress, JSON). Both wrk threads start at a
-- different reader.
local threads = 0

function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end

local cookies = {}
local next_reader = 0
local mode = os.getenv("BENCH_MODE")
local origin = os.getenv("BENCH_ORIGIN")

function init()
  for line in io.lines(os.getenv("BENCH_COOKIES")) do
    if line ~= "" then cookies[#cookies + 1] = line end
  end
  next_reader = first * math.floor(#cookies / 2)
end

request = function()
  next_reader = next_reader % #cookies + 1
  local cookie = cookies[next_reader]
  if mode == "progress" then
    local body = '{"entries":[{"chapter":1,"progress":{"scrollPosition":0.5,"paragraph":3,'
      .. '"completionPercentage":40,"readingTime":30,"completed":false,"bookmarks":[],"lastReadAt":"'
      .. os.date("!%Y-%m-%dT%H:%M:%S.000Z") .. '"}}]}'
    return wrk.format("POST", "/reader/progress", {
      ["Cookie"] = cookie,
      ["Content-Type"] = "application/json",
      ["Origin"] = origin,
      ["Sec-Fetch-Site"] = "same-origin",
    }, body)
  end
  return wrk.format("GET", nil, { ["Cookie"] = cookie, ["Accept-Encoding"] = "br" })
end
