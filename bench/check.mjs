// npm run bench:check: compares bench/results/latest.json with bench/budgets.json; exits 1 on a miss.
import fs from "node:fs";

const results = JSON.parse(fs.readFileSync("bench/results/latest.json", "utf8"));
const budgets = JSON.parse(fs.readFileSync("bench/budgets.json", "utf8"));
const misses = [];
const check = (name, ok, detail) => {
  console.log(`${ok ? "ok  " : "MISS"} ${name}: ${detail}`);
  if (!ok) misses.push(name);
};
for (const [name, b] of Object.entries(budgets)) {
  if (b.of) {
    const ratio = results.runs[b.run].rps / results.runs[b.of].rps;
    check(name, ratio >= b.min, `${b.run} ${ratio.toFixed(3)}x of ${b.of} (min ${b.min})`);
  }
  if (b.maxP99Ms) {
    // A reply slower than wrk's timeout is not in the latency figures (bench/run.mjs): none may time out.
    const { p99, timeouts = 0 } = results.runs[b.run];
    check(
      name,
      p99 <= b.maxP99Ms && timeouts === 0,
      `p99 ${p99} ms (max ${b.maxP99Ms}), ${timeouts} timed out`,
    );
  }
  if (b.maxHtmlBrotliBytes) {
    const bytes = results.weights[b.page].htmlBrotliBytes;
    check(name, bytes <= b.maxHtmlBrotliBytes, `${bytes} B compressed (max ${b.maxHtmlBrotliBytes})`);
  }
  if (b.maxHtmlToTextRatio) {
    const page = b.page === "reference" ? results.referenceChapter : b.page;
    // From the bytes, not the table's rounded figure: 1.204 must not pass as 1.20.
    const { htmlBytes, chapterTextBytes } = results.weights[page];
    const ratio = htmlBytes / chapterTextBytes;
    check(
      name,
      ratio <= b.maxHtmlToTextRatio,
      `HTML ${ratio.toFixed(3)}x the chapter text (max ${b.maxHtmlToTextRatio})`,
    );
  }
  if (b.maxJsBrotliKB) {
    const kb = results.weights[b.page].jsBrotliKB;
    check(name, kb <= b.maxJsBrotliKB, `${kb} KB JS (max ${b.maxJsBrotliKB})`);
  }
  if (b.lighthouse) {
    const lh = results.lighthouse?.[b.lighthouse];
    if (!lh) check(name, false, "no Lighthouse figures (run without --skip-lighthouse)");
    else
      check(
        name,
        lh.lcpMs <= b.maxLcpMs &&
          lh.cls <= b.maxCls &&
          lh.tbtMs <= b.maxTbtMs &&
          lh.accessibility >= b.minAccessibility,
        `${b.lighthouse}: medians LCP ${lh.lcpMs} ms, CLS ${lh.cls}, TBT ${lh.tbtMs} ms, accessibility ${lh.accessibility} (performance ${lh.performance}, not budgeted)`,
      );
  }
  if (b.maxRssMB) check(name, results.rssMB <= b.maxRssMB, `RSS ${results.rssMB} MB (max ${b.maxRssMB})`);
}
console.log(misses.length ? `${misses.length} budget(s) missed` : "every budget met");
process.exit(misses.length ? 1 : 0);
