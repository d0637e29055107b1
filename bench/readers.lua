-- Many distinct signed-in readers (bench/renders.mjs): each request a different reader's, from the cookie file
-- in BENCH_COOKIES (one `session=<token>` a line), the lines from BENCH_FIRST (0-based) on, BENCH_COUNT of them.
-- wrk's two threads take alternate lines, so no two requests of a run share a reader until the lines run out
-- (then they start over: the part reports it). All ask for brotli, as browsers do. With BENCH_QUERIES (a file
-- of query strings, one a line), each request also asks the page with the next of them appended (a search
-- typed by many readers, not one URL).
local threads = 0
local cookies = {}
local queries = {}
local next_line = 0

function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function init(args)
  local first = tonumber(os.getenv("BENCH_FIRST") or "0")
  local count = tonumber(os.getenv("BENCH_COUNT") or "0")
  local line_number = 0
  for line in io.lines(os.getenv("BENCH_COOKIES")) do
    if line ~= "" and line_number >= first and (count == 0 or line_number < first + count) then
      cookies[#cookies + 1] = line
    end
    line_number = line_number + 1
  end
  if os.getenv("BENCH_QUERIES") then
    for line in io.lines(os.getenv("BENCH_QUERIES")) do
      if line ~= "" then queries[#queries + 1] = line end
    end
  end
  next_line = thread_index
end

request = function()
  local cookie = cookies[(next_line % #cookies) + 1]
  local path = nil
  if #queries > 0 then path = wrk.path .. queries[(next_line % #queries) + 1] end
  next_line = next_line + 2
  return wrk.format("GET", path, { ["Cookie"] = cookie, ["Accept-Encoding"] = "br" })
end
