-- The release minute (bench/run.mjs): every other request as the signed-in reader whose cookie is in
-- BENCH_COOKIE, the others as visitors; all ask for brotli, as browsers do.
local cookie = os.getenv("BENCH_COOKIE")
local count = 0

request = function()
  count = count + 1
  if count % 2 == 0 then
    return wrk.format("GET", nil, { ["Cookie"] = cookie, ["Accept-Encoding"] = "br" })
  end
  return wrk.format("GET", nil, { ["Accept-Encoding"] = "br" })
end
