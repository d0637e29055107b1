// Renders and writes never starve kept pages (ADR 68): the kept /toc's p99 alone, then while
// 50 connections of distinct signed-in readers ask for a page rendered per request (RENDERED), and while 50
// send reading progress (POST /reader/progress), two wrk at once. Measured on one data directory with the
// admission gate off (RENDERS_IN_FLIGHT=0, the default for now: the figures before it) and on (RENDERS_IN_FLIGHT=1), so the two compare in
// the same run. The background loads' requests/s, p99 and refusals (non-2xx: 503s, each page answering 200
// when asked alone, which the part checks) are recorded beside the /toc figures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { content, duration, fetchText, memoryTrail, startApp, wrk, wrkRun } from "./lib.mjs";
import { removeAtExit } from "./tools.mjs";

const READERS = 50;
/** A page rendered on every request, for a visitor too (the polls: each reader's own votes, ADR 71). */
const RENDERED = "/polls";
const br = { "Accept-Encoding": "br" };
const script = "bench/starvation.lua";

/** wrkRun in a worker thread (it blocks its thread until wrk ends), so that two loads run at once. */
function wrkAlongside(url, headers, seconds, env) {
  const lib = new URL("./lib.mjs", import.meta.url).href;
  const worker = new Worker(
    `const { parentPort, workerData: w } = require("node:worker_threads");
     import(${JSON.stringify(lib)}).then(({ wrkRun }) =>
       parentPort.postMessage(wrkRun(w.url, w.headers, w.seconds, w.script, w.env)));`,
    { eval: true, workerData: { url, headers, seconds, script, env } },
  );
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

/**
 * The kept /toc (50 connections, brotli) while `background` runs: the background starts a second earlier and
 * ends a second later, so every measured request meets it.
 */
async function tocUnder(app, background) {
  const load = wrkAlongside(`${app.base}${background.path}`, {}, duration + 2, background.env);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const toc = wrk(`${app.base}/toc`, br);
  return { toc, background: await load };
}

/** One answer of each background request, alone: 200 (so the loads' non-2xx are the gate's 503s). */
async function checkAlone(app, cookie) {
  const page = await fetch(`${app.base}${RENDERED}`, { headers: { cookie } });
  const progress = await fetch(`${app.base}/reader/progress`, {
    method: "POST",
    headers: {
      cookie,
      "content-type": "application/json",
      origin: app.base,
      "sec-fetch-site": "same-origin",
    },
    body: JSON.stringify({
      entries: [
        {
          chapter: 1,
          progress: {
            scrollPosition: 0.5,
            paragraph: 3,
            completionPercentage: 40,
            readingTime: 30,
            completed: false,
            bookmarks: [],
            lastReadAt: new Date().toISOString(),
          },
        },
      ],
    }),
  });
  await progress.text();
  if (page.status !== 200 || progress.status !== 200)
    throw new Error(`alone, ${RENDERED} answered ${page.status} and progress ${progress.status}`);
  // Rendered per request for a signed-in reader (no X-Cache): the load this part is about.
  return { renderedKept: page.headers.has("x-cache") };
}

/** The figures of one server: /toc alone, under renders, under progress writes. */
async function measureServer(name, dataDir, cookies, env) {
  const app = await startApp({ name, env: { DATA_DIR: dataDir, ...env } });
  try {
    const cookie = fs.readFileSync(cookies, "utf8").split("\n")[0];
    const alone = await checkAlone(app, cookie);
    const loadEnv = (mode) => ({ BENCH_COOKIES: cookies, BENCH_MODE: mode, BENCH_ORIGIN: app.base });
    // Warm: the kept /toc, and the renders' code paths.
    await fetchText(`${app.base}/toc`);
    wrkRun(`${app.base}/toc`, br, 3);
    wrkRun(`${app.base}${RENDERED}`, {}, 3, script, loadEnv("page"));
    const tocAlone = wrk(`${app.base}/toc`, br);
    const renders = await tocUnder(app, { path: RENDERED, env: loadEnv("page") });
    const progress = await tocUnder(app, { path: "/reader/progress", env: loadEnv("progress") });
    return {
      ...alone,
      tocAlone,
      tocUnderRenders: renders.toc,
      renders: renders.background,
      tocUnderProgress: progress.toc,
      progress: progress.background,
      peakRssMB: Math.round(app.peakRssMB()),
    };
  } finally {
    await app.stop();
  }
}

export default async function measure(results) {
  // The demo content and 50 generated readers, each signed in (`npm run content`, the server stopped).
  const dataDir = removeAtExit(fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-starvation-")));
  const cookies = path.join(dataDir, "..", `${path.basename(dataDir)}-cookies`);
  removeAtExit(cookies);
  content("starvation", dataDir, "import", "content");
  content("starvation", dataDir, "generate-readers", String(READERS));
  content("starvation", dataDir, "generate-sessions", String(READERS), cookies);
  try {
    const before = await measureServer("starvation, gate off", dataDir, cookies, { RENDERS_IN_FLIGHT: "0" });
    const after = await measureServer("starvation", dataDir, cookies, { RENDERS_IN_FLIGHT: "1" });
    results.runs ??= {};
    results.runs.tocAloneBr = after.tocAlone;
    results.runs.tocUnderRendersBr = after.tocUnderRenders;
    results.runs.tocUnderProgressBr = after.tocUnderProgress;
    results.runs.rendersBesideToc = after.renders;
    results.runs.progressBesideToc = after.progress;
    results.starvation = { gateOff: before, gateOn: after };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(cookies, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = { runs: {} };
  await measure(results);
  results.memoryTrail = memoryTrail;
  const out = path.join("bench", "results", "starvation.json");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results.starvation, null, 2));
}
