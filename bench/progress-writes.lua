-- Progress writes of many signed-in readers (bench/progress-writes.mjs): each request POSTs the body the
-- chapter page sends (one chapter's record), as its fetch sends it (JSON, same-origin), for the next reader of
-- the cookie file in BENCH_COOKIES, each wrk thread starting at its own reader.
local cookies = {}
for line in io.lines(os.getenv("BENCH_COOKIES")) do
  if line ~= "" then cookies[#cookies + 1] = line end
end
local origin = os.getenv("BENCH_ORIGIN")
local threads = 0

function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end

local count = 0

request = function()
  count = count + 1
  local cookie = cookies[((first or 0) * 7919 + count) % #cookies + 1]
  local seconds = count * 15
  local body = string.format(
    '{"entries":[{"chapter":1,"progress":{"scrollPosition":%.3f,"paragraph":%d,"completionPercentage":%d,"readingTime":%d,"completed":false,"bookmarks":[],"lastReadAt":"%s"}}]}',
    (count % 90) / 100, count % 40, count % 90, seconds, os.date("!%Y-%m-%dT%H:%M:%S.000Z"))
  return wrk.format("POST", "/reader/progress", {
    ["Content-Type"] = "application/json",
    ["Cookie"] = cookie .. "; tz=UTC",
    ["Origin"] = origin,
    ["Sec-Fetch-Site"] = "same-origin",
  }, body)
end
