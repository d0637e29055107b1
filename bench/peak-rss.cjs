// Preloaded into the bench's content commands (node --require): at exit, writes the process's peak RSS (kB,
// the kernel's high-water mark) to the file BENCH_PEAK_RSS names, so the bench counts the memory of the
// processes that fill a data directory before its server's first start.
const fs = require("node:fs");

process.on("exit", () => {
  if (process.env.BENCH_PEAK_RSS)
    fs.writeFileSync(process.env.BENCH_PEAK_RSS, String(process.resourceUsage().maxRSS));
});
