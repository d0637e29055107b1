-- wrk script: every request a new spelling of the visitor's chapter page (ADR 62) — the time zone
-- cookie in random case, an unknown query parameter, an invented Accept-Language, an unknown cookie. The
-- page cache keys each by its canonical form, so they should all be hits on the one page.
local counter = 0

local function randomCase(text)
  return (text:gsub("%a", function(char)
    if math.random() < 0.5 then return char:upper() end
    return char:lower()
  end))
end

request = function()
  counter = counter + 1
  local kind = counter % 4
  local path = "/chapter/1"
  local headers = { ["Accept-Encoding"] = "br" }
  if kind == 0 then
    headers["Cookie"] = "tz=" .. randomCase("europe") .. "%2F" .. randomCase("paris")
  elseif kind == 1 then
    path = "/chapter/1?" .. math.random(1000000000) .. "=" .. counter
  elseif kind == 2 then
    headers["Accept-Language"] = "x" .. math.random(1000000) .. ";q=0.9, en;q=0.5"
  else
    headers["Cookie"] = "c" .. math.random(1000000000) .. "=" .. counter
  end
  return wrk.format("GET", path, headers)
end
