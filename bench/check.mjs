// npm run bench:check: compares bench/results/latest.json (npm run bench) and bench/results/analytics.json (its
// analytics part) with bench/budgets.json; exits 1 on a miss. A budget whose figure is missing is a miss that
// names the part to run again (and its error, when that part failed). `--only=analytics` checks the analytics
// budgets alone (`npm run bench:analytics`); `--results=FILE` reads another results file, `--budgets=FILE` other
// budgets (bench/check.test.ts).
import fs from "node:fs";
import { median } from "./median.mjs";

const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = option("only");
const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined);
const budgets = JSON.parse(fs.readFileSync(option("budgets") ?? "bench/budgets.json", "utf8"));
const results = read(option("results") ?? "bench/results/latest.json") ?? { runs: {} };
const analytics = read("bench/results/analytics.json");
const misses = [];
const check = (name, ok, detail) => {
  console.log(`${ok ? "ok  " : "MISS"} ${name}: ${detail}`);
  if (!ok) misses.push(name);
};

/** The part of bench/run.mjs that measures a budget's figure. */
function partOf(b) {
  if (b.analytics) return "analytics";
  if (b.epub) return "epub";
  if (b.lighthouse) return "lighthouse";
  if (b.cacheMiss) return "cacheMiss";
  if (b.maxGrowthMB !== undefined) return "leak";
  if (b.page) return "weight";
  if (b.memoryOf || b.maxRssMB) return "chapters";
  const measured = Object.entries(results.parts ?? {}).find(([, part]) => part.runs?.includes(b.run));
  if (measured) return measured[0];
  if (/^(baseline|chapter(Small|Signed|Es)?)(Br|Plain|InBr)$/.test(b.run)) return "chapters";
  if (b.run === "chapterFloodBr") return "flood";
  if (b.run === "releaseMinuteBr") return "releaseMinute";
  if (b.run?.endsWith("SignedInBr")) return "signedInPages";
  return b.run?.endsWith("Br") && !b.part ? "pages" : b.part;
}

/** The failed parts a missing figure has named. */
const named = new Set();

/** Why a figure is missing: its part failed (with the error), or was never run. */
function notMeasured(name, b) {
  const part = partOf(b);
  const failed = results.misses?.[part];
  named.add(part);
  check(
    name,
    false,
    failed
      ? `not measured (part ${part} failed: ${failed})`
      : `not measured: run npm run bench -- --only=${part ?? "<its part>"}`,
  );
}

for (const [name, b] of Object.entries(budgets)) {
  if (b.analytics) {
    // A median of timed calls against the generated readership (bench/analytics.ts).
    const ms = analytics?.medianMs?.[b.analytics];
    if (ms === undefined) notMeasured(name, b);
    else
      check(
        name,
        ms <= b.maxMs,
        `${b.analytics} ${ms} ms median on ${analytics.driver}, ${analytics.readers} readers, ${analytics.chapters} chapters (max ${b.maxMs})`,
      );
    continue;
  }
  if (only === "analytics") continue;
  if (b.run && (!results.runs[b.run] || (b.of && !results.runs[b.of]))) {
    notMeasured(name, b);
    continue;
  }
  if (b.run && b.of) {
    const ratio = results.runs[b.run].rps / results.runs[b.of].rps;
    check(name, ratio >= b.min, `${b.run} ${ratio.toFixed(3)}x of ${b.of} (min ${b.min})`);
  }
  if (b.maxP99Ms) {
    // A reply slower than wrk's timeout is not in the latency figures (bench/run.mjs): none may time out.
    // Nor may any answer be an error (a 5xx under load, a 429).
    const { p99, timeouts = 0, non2xx = 0 } = results.runs[b.run];
    check(
      name,
      p99 <= b.maxP99Ms && timeouts === 0 && non2xx === 0,
      `p99 ${p99} ms (max ${b.maxP99Ms}), ${timeouts} timed out, ${non2xx} not 2xx or 3xx`,
    );
  }
  if (b.page && !results.weights?.[b.page === "reference" ? results.referenceChapter : b.page]) {
    notMeasured(name, b);
    continue;
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
  // The server's CPU time over a run divided by its requests (bench/renders.mjs), in ms.
  if (b.maxCpuMsPerRequest) {
    const ms = results.runs[b.run].cpuMsPerRequest;
    check(name, ms <= b.maxCpuMsPerRequest, `${ms} ms of server CPU a request (max ${b.maxCpuMsPerRequest})`);
  }
  // The most simulated readers a release evening's step held with every page's p99 in budget and no error
  // (bench/release-evening.mjs).
  if (b.evening) {
    const evening = results.runs[b.evening];
    if (!evening) notMeasured(name, b);
    else
      check(
        name,
        (evening.readersSustained ?? 0) >= b.minReaders,
        `${evening.readersSustained ?? 0} readers sustained (min ${b.minReaders})`,
      );
  }
  if (b.maxJsBrotliKB) {
    const kb = results.weights[b.page].jsBrotliKB;
    check(name, kb <= b.maxJsBrotliKB, `${kb} KB JS (max ${b.maxJsBrotliKB})`);
  }
  // A page's Lighthouse medians against another measurement's (`of`, as a run's rate against another run's):
  // its LCP at most `maxLcpRatio` times the other's or `maxLcpOverMs` over it, whichever allows more, and its
  // TBT at most `maxTbtOverMs` over the other's. The chapter page with the offline worker against the same page
  // with the worker kept out (ADR 96).
  if (b.lighthouse && b.of) {
    const [lh, other] = [results.lighthouse?.[b.lighthouse], results.lighthouse?.[b.of]];
    if (!lh || !other) notMeasured(name, b);
    else {
      const maxLcp = Math.max(other.lcpMs * (b.maxLcpRatio ?? 1), other.lcpMs + (b.maxLcpOverMs ?? 0));
      const maxTbt = other.tbtMs + (b.maxTbtOverMs ?? 0);
      check(
        name,
        lh.lcpMs <= maxLcp && lh.tbtMs <= maxTbt,
        `${b.lighthouse}: medians LCP ${lh.lcpMs} ms (max ${+maxLcp.toFixed(1)}), TBT ${lh.tbtMs} ms (max ${maxTbt}); ${b.of}: LCP ${other.lcpMs} ms, TBT ${other.tbtMs} ms`,
      );
    }
  } else if (b.lighthouse) {
    const lh = results.lighthouse?.[b.lighthouse];
    if (!lh) notMeasured(name, b);
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
  // The first render after an author's edit (bench/cache-miss.mjs); the other chapter kept through every edit.
  if (b.cacheMiss) {
    const miss = results.cacheMiss;
    if (!miss) notMeasured(name, b);
    else
      check(
        name,
        miss.medianMs <= b.maxMedianMs && miss.otherKeptRounds === miss.rounds,
        `${miss.page} after an edit: median ${miss.medianMs} ms over ${miss.rounds} edits (max ${b.maxMedianMs}), another chapter kept through ${miss.otherKeptRounds} of them`,
      );
  }
  // The EPUB download (bench/epub.mjs): how long a reader waits for a build, and for the kept file.
  if (b.epub) {
    const figure = results.epub?.[b.epub];
    if (!figure) notMeasured(name, b);
    else
      check(
        name,
        figure.medianMs <= b.maxMedianMs && (b.maxBytes === undefined || figure.bytes <= b.maxBytes),
        `${b.epub}: median ${figure.medianMs} ms (max ${b.maxMedianMs})${figure.bytes === undefined ? "" : `, ${figure.bytes} B`}`,
      );
  }
  // The same load three times over on one server: its RSS after the last round against after the first.
  if (b.maxGrowthMB !== undefined) {
    const rounds = results.leakCheck;
    if (!rounds?.length) notMeasured(name, b);
    else {
      const growth = (rounds.at(-1)?.rssMB ?? 0) - (rounds[0]?.rssMB ?? 0);
      check(
        name,
        growth <= b.maxGrowthMB,
        `RSS after each of ${rounds.length} rounds: ${rounds.map((r) => r.rssMB).join(", ")} MB, ${growth} MB from the first to the last (max ${b.maxGrowthMB})`,
      );
    }
  }
  // The same page's load on the serial as shipped and on the long one: the long serial's server may hold at
  // most `maxRatio` times as much, the median of its RSS after each run of that page against the other's. The
  // median, not the high-water mark: one run's garbage collection can leave a peak 30 MB above the next
  // (365 against 332-336 MB on the same server in one bench); the peak has its own budget (`maxRssMB`).
  if ((b.memoryOf || b.maxRssMB) && !results.memoryTrail?.length) {
    notMeasured(name, b);
    continue;
  }
  if (b.memoryOf) {
    const held = (server) =>
      median(
        (results.memoryTrail ?? [])
          .filter((entry) => entry.server === server && entry.run === b.memoryOf)
          .map((entry) => entry.rssMB),
      ) ?? 0;
    const [large, small] = [held(b.large), held(b.small)];
    check(
      name,
      large > 0 && small > 0 && large <= small * b.maxRatio,
      `${b.memoryOf}: ${large} MB on ${b.large}, ${small} MB on ${b.small} after its runs (median; max ${b.maxRatio}x)`,
    );
  }
  // At any point of the bench: the servers' high-water mark, first start included (bench/run.mjs).
  if (b.maxRssMB) {
    const peak = Math.max(results.rssMB ?? 0, results.peakRssMB ?? 0);
    check(name, peak <= b.maxRssMB, `RSS at most ${peak} MB during the bench (max ${b.maxRssMB})`);
  }
}
// A part that failed and no budget named above is named too: its figures are missing from the results.
const failedParts = Object.entries(results.misses ?? {}).filter(
  ([part]) => !named.has(part) && (only !== "analytics" || part === "analytics"),
);
for (const [part, error] of failedParts) console.log(`MISS part ${part} failed: ${error}`);
misses.push(...failedParts.map(([part]) => part));
console.log(misses.length ? `${misses.length} budget(s) missed or not measured` : "every budget met");
process.exit(misses.length ? 1 : 0);
