// npm run bench: measures the production build, as `npm start` runs it (its access log included), against a
// bare Node server sending the same bytes of the chapter page, pre-compressed (the baseline), in the same run,
// on this machine. Load comes from wrk (Debian's package) on loopback. The measurements are PARTS, each run in
// turn; a part that fails is recorded as a miss with its error and the run goes on. Results are merged into
// bench/results/latest.json after each part (a part's figures replace that part's, with its date; the others
// stay), so `--only=a,b` re-measures some parts and keeps the rest. Prints a table of ratios at the end.
// Options: --only=PART,... (default: every part), --duration=SECONDS (default 10), --skip-lighthouse,
// --results=FILE (default bench/results/latest.json).
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { measureCacheMiss } from "./cache-miss.mjs";
import {
  args,
  best,
  connections,
  duration,
  fetchText,
  measureBaseline,
  memoryTrail,
  postForm,
  signedIn,
  signedInCookie,
  startApp,
  startBaseline,
  waitForQuiet,
  wrk,
  wrkRun,
} from "./lib.mjs";
import { median } from "./median.mjs";
import { chapterTextLength, loadedScripts } from "./page-figures.mjs";
import { removeAtExit, requireTools } from "./tools.mjs";

/** Lighthouse now and then fails to drive the browser (seen once in a dozen runs): up to three tries. */
function lighthouse(url, headers, options) {
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(url, headers, options);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`lighthouse ${url} failed (try ${attempt} of 3), trying again`);
    }
  }
}

/**
 * Lighthouse's figures vary from run to run (its documentation advises the median of several runs; total
 * blocking time moves most, and the score with it): five runs, and the median of each figure. The budgets
 * are on the figures readers feel (LCP, CLS, TBT: ADR 30), the score is recorded only.
 */
const medianLighthouse = (url, headers, options) =>
  medianFigures([0, 1, 2, 3, 4].map(() => lighthouse(url, headers, options)));

function medianFigures(runs) {
  return Object.fromEntries(
    Object.keys(runs[0]).map((figure) => [figure, median(runs.map((run) => run[figure]))]),
  );
}

/** The requests for the offline worker's script (public/sw.js) in the server's access log from `offset` on. */
function workerScriptRequests(logFile, offset) {
  const size = fs.statSync(logFile).size;
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  const fd = fs.openSync(logFile, "r");
  try {
    fs.readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    fs.closeSync(fd);
  }
  return buffer
    .toString("utf8")
    .split("\n")
    .filter((line) => line.includes('"url":"/sw.js"')).length;
}

/**
 * One run by bench/lighthouse-once.mjs (the CLI's way, with `--without-worker`: the page finds no
 * `navigator.serviceWorker`, so the offline worker is not registered). With `worker` (`true` or `false`) and
 * the server's `log`, the run is checked in the access log: the worker's script asked for (a first visit
 * registers it after `load`), or not asked for at all; otherwise it throws.
 */
function lighthouseOnce(url, headers, { worker, log } = {}) {
  const out = path.join(os.tmpdir(), `cc-lh-${Date.now()}.json`);
  const offset = log ? fs.statSync(log).size : 0;
  execFileSync(
    process.execPath,
    [
      "bench/lighthouse-once.mjs",
      url,
      `--output-path=${out}`,
      ...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
      ...(worker === false ? ["--without-worker"] : []),
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const report = JSON.parse(fs.readFileSync(out, "utf8"));
  fs.rmSync(out);
  // The access log is written as requests end; Lighthouse's run ends seconds after the page's last one.
  const workerRequests = log ? workerScriptRequests(log, offset) : undefined;
  if (worker === true && workerRequests === 0)
    throw new Error(`${url}: the offline worker was not registered (no GET /sw.js in ${log})`);
  if (worker === false && workerRequests !== 0)
    throw new Error(`${url}: the offline worker was not kept out (${workerRequests} GET /sw.js in ${log})`);
  const js = report.audits["network-requests"].details.items
    .filter((i) => i.resourceType === "Script")
    .reduce((sum, i) => sum + i.transferSize, 0);
  return {
    performance: Math.round(report.categories.performance.score * 100),
    accessibility: Math.round(report.categories.accessibility.score * 100),
    lcpMs: Math.round(report.audits["largest-contentful-paint"].numericValue),
    cls: +report.audits["cumulative-layout-shift"].numericValue.toFixed(4),
    tbtMs: Math.round(report.audits["total-blocking-time"].numericValue),
    jsKB: +(js / 1024).toFixed(1),
    ...(workerRequests === undefined ? {} : { workerScriptRequests: workerRequests }),
  };
}

/** HTML bytes (plain and brotli) of a page, and the JavaScript it loads (bench/page-figures.mjs). */
function pageWeight(html, scripts) {
  return {
    htmlBytes: Buffer.byteLength(html),
    htmlBrotliBytes: zlib.brotliCompressSync(Buffer.from(html)).length,
    ...(scripts
      ? { scripts: scripts.scripts.length, jsBrotliKB: +(scripts.brotliBytes / 1024).toFixed(1) }
      : {}),
  };
}

/** The chapter text's own markup in a chapter page, and the page's size as a multiple of it. */
function textRatio(html) {
  const text = chapterTextLength(html);
  return { chapterTextBytes: text, htmlToTextRatio: +(Buffer.byteLength(html) / text).toFixed(3) };
}

const br = { "Accept-Encoding": "br" };

/**
 * The site most parts load: the serial with 1,000 more chapters and 10,000 generated readers, chapter 1 with
 * five comments (the most one reader may post in a minute, ADR 47), a signed-in reader. Started by the first
 * part that asks for it, stopped at the end.
 */
let site;
const large = () => {
  site ??= (async () => {
    const app = await startApp({ name: "1,010 chapters", large: true });
    const cookie = await signedInCookie(app.base);
    for (let i = 0; i < 5; i++)
      await postForm(
        app.base,
        "/chapter/1/comments",
        { intent: "post", body: `Bench comment ${i}: *the bells*.` },
        cookie,
      );
    return { app, cookie, chapterHtml: await fetchText(`${app.base}/chapter/1`) };
  })();
  return site;
};

/** The reference page: of the generated free chapters (the first of each volume), the nearest 4,000 words. */
let reference;
const referenceChapter = (app) => {
  reference ??= (async () => {
    const candidates = [];
    for (let number = 1001; number <= 1901; number += 100) {
      const html = await fetchText(`${app.base}/chapter/${number}`);
      const words = Number(/wordCount\\?",(\d+)/.exec(html)?.[1] ?? 0);
      candidates.push({ number, html, distance: Math.abs(words - 4000) });
    }
    return candidates.sort((a, b) => a.distance - b.distance)[0];
  })();
  return reference;
};

/**
 * Makes a signed-up reader an author, as an operator does (`npm run admin -- grant-author`). Not blocking: a
 * kept-alive socket the server closes meanwhile must be seen closed by fetch, whose timers need the event loop
 * (a synchronous call of 8 s on a busy machine left a dead socket to the next request: "fetch failed").
 */
const grantAuthor = (app, email) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", "grant-author", email], {
    env: { ...process.env, DATA_DIR: app.dataDir },
  });

/** The baseline for parts whose ratios need one when `chapters` (which measures it interleaved) is not run. */
async function baselineAlone(results) {
  const { app } = await large();
  results.runs.baselineBr = await measureBaseline(app);
}

// The comparisons run three times, interleaved, every other round in reverse order (on this machine a run
// straight after another is slower), and keep the best of each: at 40,000-70,000 requests a second a passing
// hiccup moves one run by 20 %, and it should not decide a ratio. The signed-in reader's chapter page is
// compared in the same rounds: measured minutes after the baseline, its ratio moved with the machine (0.26-0.33
// for the same code). The serial as shipped (10 chapters) is the "flat in serial length" comparison.
async function chapters(results) {
  const { app, cookie, chapterHtml } = await large();
  const small = await startApp({ name: "10 chapters", large: false });
  const baseline = await startBaseline(chapterHtml);
  try {
    const compared = [
      ["baselineBr", `${baseline.base}/chapter/1`, br],
      ["chapterSmallBr", `${small.base}/chapter/1`, br],
      ["chapterBr", `${app.base}/chapter/1`, br],
      ["chapterSignedInBr", `${app.base}/chapter/1`, { ...br, Cookie: cookie }],
      // Chapter 1 at the Spanish URL (ADR 87), kept as the unprefixed page is and held to the same ratio.
      ["chapterEsBr", `${app.base}/es/chapter/1`, br],
    ];
    // A process's first seconds under load are its compiler's warm-up, not its steady state: each server gets
    // a few seconds of the same load before it is measured.
    for (const [, url, headers] of compared) wrk(url, headers, 3);
    const pairs = Object.fromEntries(compared.map(([name]) => [name, []]));
    for (let round = 0; round < 3; round++) {
      const order = round % 2 ? [...compared].reverse() : compared;
      for (const [name, url, headers] of order) pairs[name].push(wrk(url, headers));
    }
    for (const [name, runs] of Object.entries(pairs)) results.runs[name] = best(...runs);
    results.runs.baselinePlain = wrk(`${baseline.base}/chapter/1`);
  } finally {
    await baseline.stop();
    await small.stop();
  }
  results.runs.chapterPlain = wrk(`${app.base}/chapter/1`);
  results.runs.chapterEsPlain = wrk(`${app.base}/es/chapter/1`);
}

/** The pages every visitor shares, kept: with and without brotli. */
async function pages(results) {
  const { app } = await large();
  for (const [name, route] of [
    ["toc", "/toc"],
    ["home", "/"],
    ["shop", "/shop"],
    // A product page under the shop's layout (cart bar, ADR 24): a visitor without a cart gets the kept page.
    ["product", "/shop/product/1"],
    // The inquiry form of a product priced 0 (ADR 26), as a visitor.
    ["inquiry", "/shop/product/6/inquire"],
    // The fundraiser (goals, tiers, recent supporters) and the supporters wall's second page (ADR 28).
    ["fundraiser", "/fundraiser"],
    ["supporters", "/fundraiser/supporters?page=2"],
    // Chapter 1's comments as the chapter page loads them for a visitor (route data, kept: ADR 47).
    ["comments", "/chapter/1/comments.data?_routes=routes%2Fchapter-comments"],
  ]) {
    results.runs[`${name}Br`] = wrk(`${app.base}${route}`, br);
    results.runs[`${name}Plain`] = wrk(`${app.base}${route}`);
  }
}

/** The reading the signed-in reader has behind them: three chapters completed. */
async function readThreeChapters(app, cookie) {
  for (const chapter of [1, 2, 3]) {
    await fetch(`${app.base}/reader/progress`, {
      method: "POST",
      headers: {
        origin: app.base,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
        cookie,
      },
      body: JSON.stringify({
        entries: [
          {
            chapter,
            progress: {
              scrollPosition: 1,
              paragraph: 0,
              completionPercentage: 100,
              readingTime: 200,
              completed: true,
              bookmarks: [],
              lastReadAt: new Date().toISOString(),
            },
          },
        ],
      }),
    });
  }
}

// The signed-in reader's own pages, kept for them until anything of theirs changes (ADR 53; asked again and
// again by one reader, so this measures the kept page), best of three: the checkout with a line in the cart
// (the cart priced by the server, ADR 25); the account dashboard with some reading behind them (chapters
// completed, reading days, an achievement: rendered from their records in the same statements whatever their
// history, ADR 31); their achievements; their settings (devices, the time-zone list, the forms: one run).
async function signedInPages(results) {
  const { app, cookie } = await large();
  const own = (route) => wrk(`${app.base}${route}`, { ...br, Cookie: cookie });
  await postForm(app.base, "/cart", { intent: "add", productId: "1", variantId: "", quantity: "1" }, cookie);
  results.runs.checkoutSignedInBr = best(own("/checkout"), own("/checkout"), own("/checkout"));
  await readThreeChapters(app, cookie);
  results.runs.accountSignedInBr = best(own("/account"), own("/account"), own("/account"));
  results.runs.achievementsSignedInBr = best(
    own("/achievements"),
    own("/achievements"),
    own("/achievements"),
  );
  results.runs.settingsSignedInBr = own("/settings");
}

// Invented spellings of the chapter page (time zone case, unknown query parameters, languages, cookies:
// bench/flood.lua) are the page itself to the page cache: a flood of them runs at a hit's pace, not a render's.
// Best of three, as the hit it is compared with.
async function flood(results) {
  const { app } = await large();
  const run = () => wrk(`${app.base}/chapter/1`, br, duration, "bench/flood.lua");
  results.runs.chapterFloodBr = best(run(), run(), run());
}

// The leak check: the load of the other parts, three times over on the same server process,
// its RSS read after each round. A leak grows it round after round; a heap that has found its size does not.
async function leak(results) {
  const { app, cookie } = await large();
  const load = [
    [`${app.base}/chapter/1`, br],
    [`${app.base}/chapter/1`, { ...br, Cookie: cookie }],
    [`${app.base}/toc`, br],
    [`${app.base}/shop/product/1`, br],
    [`${app.base}/account`, { ...br, Cookie: cookie }],
    [`${app.base}/checkout`, { ...br, Cookie: cookie }],
    [`${app.base}/chapter/1`, br, "bench/flood.lua"],
  ];
  results.leakCheck = [];
  for (let round = 1; round <= 3; round++) {
    for (const [url, headers, script] of load) wrkRun(url, headers, 4, script, {});
    results.leakCheck.push({ round, rssMB: Math.round(app.rssMB()), peakRssMB: Math.round(app.peakRssMB()) });
  }
  const { rssMB, peakRssMB } = results.leakCheck.at(-1);
  memoryTrail.push({ server: app.name, run: "leak check (3 rounds)", rssMB, peakRssMB });
}

// HTML and JavaScript bytes of the main pages, and the reference chapter's HTML as a multiple of its text.
async function weight(results) {
  const { app, chapterHtml } = await large();
  results.weights = {};
  const routes = ["/chapter/1", "/es/chapter/1", "/toc", "/", "/shop", "/shop/product/1"];
  const scripts = await loadedScripts(routes.map((route) => `${app.base}${route}`));
  for (const route of routes) {
    results.weights[route] = pageWeight(
      await fetchText(`${app.base}${route}`),
      scripts[`${app.base}${route}`],
    );
  }
  Object.assign(results.weights["/chapter/1"], textRatio(chapterHtml));
  const chapter = await referenceChapter(app);
  results.referenceChapter = `/chapter/${chapter.number}`;
  results.weights[results.referenceChapter] = { ...pageWeight(chapter.html), ...textRatio(chapter.html) };
}

// A cache miss (ADR 54): the author edits the reference chapter's text through the admin, and the next
// visitor's request renders it; the next chapter's kept page must survive every edit.
async function cacheMiss(results) {
  const { app } = await large();
  const chapter = await referenceChapter(app);
  const author = await signedIn(app.base);
  await grantAuthor(app, author.email);
  results.cacheMiss = await measureCacheMiss(app.base, author.cookie, {
    number: chapter.number,
    title: /<h1[^>]*>([^<]*)</.exec(chapter.html)?.[1] ?? "",
    other: chapter.number + 1,
  });
}

/** The chapter page measured with the offline worker kept out: its name in the results and the budgets. */
const WITHOUT_WORKER = "/chapter/1, offline worker kept out";

// Lighthouse mobile, once the server is quiet, on the kept pages and the signed-in reader's own.
async function lighthousePart(results) {
  const { app, cookie } = await large();
  await waitForQuiet(app);
  results.lighthouse = {};
  // The chapter page with the offline worker and without it (ADR 96: the worker must not slow a first visit),
  // the runs taken in turns so a change in the shared machine's load falls on both: five of each, medians.
  const chapter = [0, 1, 2, 3, 4].flatMap(() =>
    [true, false].map((worker) =>
      lighthouse(`${app.base}/chapter/1`, undefined, { worker, log: app.logFile }),
    ),
  );
  const [withWorker, withoutWorker] = [0, 1].map((turn) => chapter.filter((_, index) => index % 2 === turn));
  results.lighthouse["/chapter/1"] = medianFigures(withWorker);
  results.lighthouse[WITHOUT_WORKER] = medianFigures(withoutWorker);
  // Each run's LCP and TBT of the pair, in the order taken: how far apart the runs of one page fall.
  const each = (runs) => runs.map(({ lcpMs, tbtMs }) => ({ lcpMs, tbtMs }));
  results.lighthouseRuns = { "/chapter/1": each(withWorker), [WITHOUT_WORKER]: each(withoutWorker) };
  for (const route of ["/toc", "/shop"])
    results.lighthouse[route] = medianLighthouse(`${app.base}${route}`, undefined, { log: app.logFile });
  results.lighthouse["/account"] = medianLighthouse(
    `${app.base}/account`,
    { Cookie: cookie },
    { log: app.logFile },
  );
}

// The release minute (ADR 50): the demo and a free chapter 11 released five seconds after the load starts, on
// a server of its own with the test clock (ADR 39). Visitors and a signed-in reader, half each, ask for it from
// before the release to after it. That no request sees its text early and every later one sees it is
// tests/server/release-minute.test.ts's to check; this measures the rush's speed and errors.
async function releaseMinute(results) {
  const contentDir = removeAtExit(fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-content-")));
  fs.cpSync("content", contentDir, { recursive: true });
  fs.writeFileSync(
    path.join(contentDir, "chapters", "11.md"),
    '---\nnumber: 11\ntitle: "The Bell Minute"\nvolume: 2\nreleaseAt: "2099-01-01T00:00:00Z"\ncoinsRequired: 0\ntags: []\n---\nThe bells rang at the minute of release.\n',
  );
  const rush = await startApp({ name: "release minute", contentDir, env: { TEST_CLOCK: "true" } });
  try {
    const author = await signedIn(rush.base);
    await grantAuthor(rush, author.email);
    const reader = await signedInCookie(rush.base);
    // Warm, as a server is by the time of a release.
    wrk(`${rush.base}/chapter/1`, br, 3);
    // The author's zone is UTC: the release time stands 5 s before 2099-01-01T00:00:00Z.
    const moved = await postForm(
      rush.base,
      "/admin/clock",
      { intent: "set", releaseLocal: "2098-12-31T23:59:55" },
      author.cookie,
    );
    if (moved.status !== 200) throw new Error(`the test clock answered ${moved.status}`);
    results.runs.releaseMinuteBr = wrk(`${rush.base}/chapter/11`, {}, 10, "bench/release.lua", {
      BENCH_COOKIE: reader,
    });
  } finally {
    await rush.stop();
  }
}

// The admin's analytics on 100,000 generated readers (bench/analytics.ts, a database of its own): its figures
// in bench/results/analytics.json, checked with the rest.
async function analytics(results) {
  execFileSync(process.execPath, ["--import", "tsx", "bench/analytics.ts"], {
    env: { ...process.env, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  results.analytics = JSON.parse(fs.readFileSync("bench/results/analytics.json", "utf8"));
}

/**
 * Every part, in the order run. A part is `async (results) => void`, writing its figures into `results.runs`
 * or `results.<key>`; the modules are other bench parts' own files (`bench/<name>.mjs`, `export default async
 * function measure(results)`), each also runnable alone. Adding a part is one line here.
 */
const parts = {
  chapters,
  pages,
  signedInPages,
  flood,
  leak,
  weight,
  cacheMiss,
  lighthouse: lighthousePart,
  releaseMinute,
  analytics,
  ...Object.fromEntries(
    ["progress-writes", "starvation", "renders", "release-evening", "epub"].map((name) => [
      name,
      async (results) => (await import(`./${name}.mjs`)).default(results),
    ]),
  ),
};

// --skip-lighthouse leaves the part out: its earlier figures stay, with their date.
const only = (typeof args.only === "string" ? args.only.split(",") : Object.keys(parts)).filter(
  (name) => name !== "lighthouse" || !args["skip-lighthouse"],
);
const unknown = only.filter((name) => !parts[name]);
if (unknown.length) {
  console.error(`unknown part(s): ${unknown.join(", ")}; the parts: ${Object.keys(parts).join(", ")}`);
  process.exit(1);
}
requireTools({ lighthouse: only.includes("lighthouse") && !args["skip-lighthouse"] });

const file = typeof args.results === "string" ? args.results : "bench/results/latest.json";
const stored = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
const results = {
  ...stored,
  runs: { ...stored.runs },
  parts: { ...stored.parts },
  misses: { ...stored.misses },
};
Object.assign(results, { date: new Date().toISOString(), durationSeconds: duration, connections });

/** Merges one part's figures into the results and writes them, so a later failure loses nothing measured. */
function record(name, figures, trail, error) {
  const { runs = {}, handedBaseline, ...rest } = figures;
  // The baseline it was handed is the `chapters` part's, or the `baseline` step's: not this part's figure.
  if (handedBaseline) delete runs.baselineBr;
  Object.assign(results.runs, runs);
  Object.assign(results, rest);
  // The memory trail of the parts not run this time, and this part's own.
  results.memoryTrail = [
    ...(results.memoryTrail ?? []).filter((entry) => entry.part !== name),
    ...trail.map((entry) => ({ ...entry, part: name })),
  ];
  results.parts[name] = { date: new Date().toISOString(), runs: Object.keys(runs) };
  if (error)
    results.misses[name] = String(error.message ?? error)
      .split("\n")
      .slice(0, 3)
      .join(" ");
  else delete results.misses[name];
  write();
}

function write() {
  // The servers' (the fixtures' generators are the bench's tools, listed apart).
  const servers = results.memoryTrail.filter((entry) => !entry.fixture);
  results.peakRssMB = Math.max(0, ...servers.map((entry) => entry.peakRssMB));
  results.fixturePeakRssMB = Math.max(
    0,
    ...results.memoryTrail.filter((entry) => entry.fixture).map((entry) => entry.peakRssMB),
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

// The parts whose budgets are no ratio to the baseline; any other, run without `chapters`, needs it measured.
const withoutBaseline = ["weight", "cacheMiss", "leak", "lighthouse", "releaseMinute", "analytics"];
const needsBaseline = !only.includes("chapters") && only.some((name) => !withoutBaseline.includes(name));
for (const name of needsBaseline ? ["baseline", ...only] : only) {
  const part = name === "baseline" ? baselineAlone : parts[name];
  const handedBaseline = name !== "baseline" && name !== "chapters";
  const figures = { runs: handedBaseline ? { baselineBr: results.runs.baselineBr } : {}, handedBaseline };
  const trailFrom = memoryTrail.length;
  const started = Date.now();
  console.log(`part ${name}: started`);
  try {
    await part(figures);
    console.log(`part ${name}: done in ${Math.round((Date.now() - started) / 1000)} s`);
    record(name, figures, memoryTrail.slice(trailFrom));
  } catch (error) {
    console.error(`part ${name}: NOT MEASURED (${String(error.message ?? error).split("\n")[0]})`);
    record(name, figures, memoryTrail.slice(trailFrom), error);
  }
}
if (site) {
  const { app } = await site.catch(() => ({}));
  if (app) {
    results.rssMB = Math.round(app.rssMB());
    await app.stop();
  }
}
write();

const base = results.runs.baselineBr?.rps;
console.table(
  Object.entries(results.runs).map(([name, r]) => ({
    run: name,
    "req/s": Math.round(r.rps),
    "vs baseline (br)": base ? +(r.rps / base).toFixed(3) : null,
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    non2xx: r.non2xx,
    timeouts: r.timeouts,
  })),
);
if (results.weights) console.table(results.weights);
if (results.lighthouse) console.table(results.lighthouse);
console.table(results.memoryTrail);
if (results.cacheMiss) console.log("a cache miss after an edit:", results.cacheMiss);
if (results.leakCheck)
  console.log(
    "the leak check, RSS after each round:",
    results.leakCheck.map((r) => `${r.rssMB} MB`).join(", "),
  );
console.log(
  `at most ${results.peakRssMB} MB held by a server during the bench (the fixtures' generators: ${results.fixturePeakRssMB} MB)`,
);
const misses = Object.entries(results.misses);
if (misses.length) {
  console.error(`${misses.length} part(s) not measured (npm run bench:check names their budgets):`);
  for (const [name, message] of misses) console.error(`  ${name}: ${message}`);
}
