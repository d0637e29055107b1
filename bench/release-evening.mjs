// A release evening of signed-in readers (ADR 70): how many readers, each reading the newest chapter
// at a human pace with the progress writes the real page sends, plus visitors, the site sustains with p99 at
// most 100 ms on every page and no error. On PGlite (one server) and on PostgreSQL (two servers on one
// database, the readers spread over both). The readers step up (each step a fresh set of them arriving over
// a ramp, then a steady stretch) until a step misses; the last step met is the figure.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { discoveredPaths, hookCadenceMs, pace } from "./evening-traffic.mjs";
import { args, cpuMs, memoryTrail, startApp } from "./lib.mjs";
import { killAtExit, removeAtExit } from "./tools.mjs";

const steps = String(args["evening-steps"] ?? "250,500,1000,2000,5000,8000")
  .split(",")
  .map(Number);
// A server that has been up all day before the release: readers of its own warm it first, unmeasured.
const WARM_UP = { readers: 100, rampMs: 5000, steadyMs: 15_000 };
const rampMs = Number(args["evening-ramp"] ?? 30) * 1000;
const steadyMs = Number(args["evening-steady"] ?? 60) * 1000;
// `--evening-on=pglite` or `=postgres`: one database only (both by default).
const P99_MS = 100;
// Each step has readers of its own (none has unlocked or read the chapter yet), so sessions for them all.
const offsets = steps.map((_, i) => WARM_UP.readers + steps.slice(0, i).reduce((sum, n) => sum + n, 0));
const allReaders = offsets.at(-1) + steps.at(-1);

/** A chapter's words and paragraphs, from its file (the reading time and the paragraph the page reports). */
function chapterText(number) {
  const body = fs.readFileSync(`content/chapters/${number}.md`, "utf8").split(/^---$/m)[2] ?? "";
  return {
    words: body.split(/\s+/).filter(Boolean).length,
    paragraphs: body.split(/\n\s*\n/).filter((p) => p.trim()).length,
  };
}

/**
 * What the model needs of the site, read from it as a reader's browser would see it: the newest chapter a
 * reader can open (readable or for coins; not one waiting for its release), the first, the manifest version
 * and each page's discovered paths.
 */
async function describeSite(base, cookie) {
  const get = (pathname, withCookie = true) =>
    fetch(`${base}${pathname}`, { headers: withCookie ? { cookie } : {} }).then((r) => r.text());
  const toc = await get("/toc");
  const version = /"version":"([^"]+)"/.exec(toc)?.[1];
  if (!version) throw new Error("no manifest version in /toc");
  const numbers = [...new Set([...toc.matchAll(/href="\/chapter\/(\d+)"/g)].map((m) => Number(m[1])))].sort(
    (a, b) => b - a,
  );
  let newest;
  for (const number of numbers) {
    const html = await get(`/chapter/${number}`);
    if (html.includes("data-p=") || html.includes('name="intent" value="unlock"')) {
      newest = { number, html };
      break;
    }
  }
  if (!newest) throw new Error("no chapter a reader can open");
  const chapter = async (number, html) => ({
    number,
    ...chapterText(number),
    manifestPaths: discoveredPaths(html),
    commentsManifestPaths: ["/chapter", `/chapter/${number}`, `/chapter/${number}/comments`],
    // The next chapter's link is prefetched as the page renders (prefetch="render").
    prefetch: html.includes(`href="/chapter/${number + 1}"`) ? `/chapter/${number + 1}.data` : undefined,
  });
  const manifestPaths = {};
  for (const page of ["/toc", ...pace.sideTrips.map((trip) => trip.page)])
    manifestPaths[page] = discoveredPaths(await get(page));
  return {
    version,
    newest: await chapter(newest.number, newest.html),
    first: await chapter(1, await get("/chapter/1", false)),
    manifestPaths,
  };
}

/** The CPU a process used over a step, in % of one core. */
const corePercent = (ms, wallMs) => Math.round((ms / wallMs) * 1000) / 10;

/**
 * One step: `readers` readers (from `offset` in the cookies file) and their visitors, played by the load
 * generator in its own process; with `pin`, the server on core 0 and the generator on core 1, so the
 * server's CPU figure is its core's alone.
 */
async function runStep({ apps, site, cookiesFile, readers, offset, pin, cadenceMs, rampMs, steadyMs }) {
  const cookies = removeAtExit(path.join(os.tmpdir(), `cc-evening-cookies-${process.pid}-${readers}`));
  const all = fs.readFileSync(cookiesFile, "utf8").split("\n").filter(Boolean);
  fs.writeFileSync(cookies, all.slice(offset, offset + readers).join("\n"));
  const config = {
    bases: apps.map((app) => app.base),
    cookiesFile: cookies,
    readers,
    visitors: Math.round(readers * pace.visitorsPerReader),
    rampMs,
    steadyMs,
    cadenceMs,
    site,
    seed: readers,
  };
  const command = [process.execPath, "bench/evening-load.mjs", JSON.stringify(config)];
  const cpuBefore = apps.map((app) => app.cpuMs());
  const started = Date.now();
  const load = os.loadavg()[0];
  const child = spawn(pin ? "taskset" : command[0], pin ? ["-c", "1", ...command] : command.slice(1), {
    stdio: ["ignore", "pipe", "inherit"],
  });
  killAtExit(child);
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  const generatorCpu = [];
  const sampler = setInterval(() => {
    try {
      generatorCpu.push(cpuMs(child.pid));
    } catch {}
  }, 1000);
  const code = await new Promise((resolve) => child.once("exit", resolve));
  clearInterval(sampler);
  fs.rmSync(cookies, { force: true });
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  const result = JSON.parse(out.trim().split("\n").at(-1));
  const wallMs = Date.now() - started;
  const worst = Object.values(result.pages).reduce((max, page) => Math.max(max, page.p99), 0);
  // In the bench's memory trail, so the servers' peaks count in its memory budget (`memory`).
  for (const app of apps)
    memoryTrail.push({
      server: app.name,
      run: `release evening, ${readers} readers`,
      rssMB: Math.round(app.rssMB()),
      peakRssMB: Math.round(app.peakRssMB()),
    });
  const serverCpuMs = apps.reduce((sum, app, i) => sum + app.cpuMs() - cpuBefore[i], 0);
  return {
    ...result,
    met: result.errors === 0 && worst <= P99_MS,
    // Where the time goes: the servers' CPU for one request on average (a CPU-bound server near its limit
    // shows it; a p99 far above it with the CPU not used up is time waiting, for the database or the core).
    serverCpuMsPerRequest: Math.round((serverCpuMs / Math.max(1, result.requests)) * 10) / 10,
    worstP99: worst,
    loadAverage: Math.round(load * 10) / 10,
    servers: apps.map((app, i) => ({
      name: app.name,
      cpuPercentOfCore: corePercent(app.cpuMs() - cpuBefore[i], wallMs),
      rssMB: Math.round(app.rssMB()),
      peakRssMB: Math.round(app.peakRssMB()),
    })),
    generator: { ...result.generator, cpuPercentOfCore: corePercent(result.generator.cpuMs, wallMs) },
  };
}

/** Steps the readers up until a step misses; the figures of the last step met, and every step's. */
async function evening({ apps, cookiesFile, pin }) {
  // `--evening-progress-every=MS`: what if the page wrote at another cadence (recorded with the figures).
  const cadenceMs = Number(args["evening-progress-every"] ?? hookCadenceMs());
  const cookie = fs.readFileSync(cookiesFile, "utf8").split("\n").filter(Boolean).at(-1) ?? "";
  const site = await describeSite(apps[0].base, cookie);
  console.log(
    `${apps[0].name}: chapter ${site.newest.number} (${site.newest.words} words), progress every ${cadenceMs} ms`,
  );
  const common = { apps, site, cookiesFile, pin, cadenceMs };
  await runStep({ ...common, ...WARM_UP, offset: 0 });
  const done = [];
  for (const [i, readers] of steps.entries()) {
    const step = await runStep({ ...common, readers, offset: offsets[i], rampMs, steadyMs });
    done.push(step);
    const pages = Object.entries(step.pages).map(([label, page]) => `${label} ${page.p99}`);
    console.log(
      `  ${readers} readers + ${step.visitors} visitors: ${step.rps} req/s, ${step.errors} errors, worst p99 ${step.worstP99} ms ` +
        `(${pages.join(", ")}); server CPU ${step.servers.map((s) => `${s.cpuPercentOfCore} %`).join(" + ")}, ` +
        `${step.serverCpuMsPerRequest} ms a request; generator ${step.generator.cpuPercentOfCore} %, ` +
        `load ${step.loadAverage}: ${step.met ? "met" : "missed"}`,
    );
    if (!step.met) {
      if (step.errorSamples.length) console.log(`    errors: ${step.errorSamples.join("; ")}`);
      break;
    }
  }
  const met = done.filter((step) => step.met).at(-1);
  const figure = met ?? done[0];
  return {
    readersSustained: met?.readers ?? 0,
    rps: figure.rps,
    p50: Math.max(...Object.values(figure.pages).map((page) => page.p50)),
    p99: figure.worstP99,
    non2xx: figure.errors,
    timeouts: 0,
    pages: figure.pages,
    servers: figure.servers,
    generator: figure.generator,
    progressEveryMs: cadenceMs,
    steps: done.map(({ errorSamples, ...step }) => step),
  };
}

const fixtures = (cookiesFile) => [
  ["generate-readers", String(allReaders)],
  ["generate-sessions", String(allReaders), cookiesFile],
];

async function onPglite() {
  const cookiesFile = removeAtExit(path.join(os.tmpdir(), `cc-evening-sessions-${process.pid}-pglite`));
  const app = await startApp({ name: "release evening (PGlite)", fixtures: fixtures(cookiesFile) });
  try {
    // The server on core 0, every thread of it; the generator on core 1 (runStep).
    execFileSync("taskset", ["-a", "-p", "-c", "0", String(app.pid)], { stdio: "ignore" });
    return await evening({ apps: [app], cookiesFile, pin: true });
  } finally {
    await app.stop();
  }
}

async function onPostgres() {
  const admin = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `bench_evening_${process.pid}`;
  const query = async (sql) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString() };
  const cookiesFile = removeAtExit(path.join(os.tmpdir(), `cc-evening-sessions-${process.pid}-postgres`));
  const apps = [];
  try {
    // The content and the readers once, before the first server; the second finds them there.
    apps.push(
      await startApp({ name: "release evening (PostgreSQL, 1 of 2)", env, fixtures: fixtures(cookiesFile) }),
    );
    apps.push(await startApp({ name: "release evening (PostgreSQL, 2 of 2)", env }));
    // Two servers and PostgreSQL share both cores with the generator: no pinning, each process's CPU reported.
    return await evening({ apps, cookiesFile, pin: false });
  } finally {
    for (const app of apps) await app.stop();
    await query(`drop database if exists ${name} with (force)`);
  }
}

export default async function measure(results) {
  const on = String(args["evening-on"] ?? "pglite,postgres").split(",");
  if (on.includes("pglite")) results.runs.releaseEveningPglite = await onPglite();
  if (on.includes("postgres")) results.runs.releaseEveningPostgres = await onPostgres();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = { runs: {} };
  await measure(results);
  console.log(JSON.stringify(results, null, 2));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/release-evening.json", `${JSON.stringify(results, null, 2)}\n`);
  process.exit(0);
}
