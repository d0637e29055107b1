// Progress writes of many signed-in readers (ADR 67): POST /reader/progress from 50
// connections, each request a different generated reader, as the chapter page sends it. Measured with each
// write in a transaction of its own (PROGRESS_BATCH_MAX=1, as before coalescing) and with the default batches,
// on PGlite and on PostgreSQL (a database the part makes and drops), in the same run.
//
//   node bench/progress-writes.mjs [--duration=10]   (after `npm run build`)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { best, duration, measureBaseline, startApp, wrk } from "./lib.mjs";
import { removeAtExit } from "./tools.mjs";

const READERS = 50;
const script = fileURLToPath(new URL("./progress-writes.lua", import.meta.url));
const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** `npm run content -- <command>` on the database `env` names (the server stopped). */
function content(env, ...command) {
  execFileSync(process.execPath, ["--import", "tsx", "scripts/content.ts", ...command], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: "ignore",
  });
}

/**
 * The database of one driver with the content, READERS generated readers and their sessions: a server starts
 * on it once (migrations and content, as `npm start` on an empty database), then the readers are made.
 */
async function prepare(name, env) {
  const setup = await startApp({ name: `${name} setup`, env });
  await setup.stop();
  const cookies = removeAtExit(path.join(os.tmpdir(), `cc-progress-cookies-${name}-${process.pid}`));
  content(env, "generate-readers", String(READERS));
  content(env, "generate-sessions", String(READERS), cookies);
  return cookies;
}

/** Writes a second at one batch size: warmed up, then the best of two runs. */
async function measureAt(name, env, cookies, batchMax) {
  const app = await startApp({ name, env: { ...env, PROGRESS_BATCH_MAX: String(batchMax) } });
  try {
    const url = `${app.base}/reader/progress`;
    const lua = { BENCH_COOKIES: cookies, BENCH_ORIGIN: app.base };
    wrk(url, {}, 3, script, lua);
    const run = best(wrk(url, {}, duration, script, lua), wrk(url, {}, duration, script, lua));
    return { ...run, batchMax, connections: 50, readers: READERS };
  } finally {
    await app.stop();
  }
}

async function measureDriver(results, driver, env) {
  const runName = `progressWrites${driver}`;
  const cookies = await prepare(runName, env);
  // Alternated, so both see the machine's load of the moment.
  const one = await measureAt(`${runName}One`, env, cookies, 1);
  const batched = await measureAt(runName, env, cookies, 500);
  results.runs[`${runName}One`] = one;
  results.runs[runName] = { ...batched, timesOne: Math.round((batched.rps / one.rps) * 10) / 10 };
  console.log(
    `${driver}: ${one.rps} writes/s one at a time (p99 ${one.p99} ms), ${batched.rps} batched (p99 ${batched.p99} ms): ${results.runs[runName].timesOne}x`,
  );
}

export default async function measure(results) {
  results.runs ??= {};
  const dataDir = removeAtExit(fs.mkdtempSync(path.join(os.tmpdir(), "cc-progress-")));
  await measureDriver(results, "Pglite", { DATA_DIR: dataDir });
  const database = `bench_progress_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    await measureDriver(results, "Postgres", { DATABASE_URL: url.toString() });
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = { runs: {} };
  const app = await startApp({ name: "baseline source" });
  try {
    results.runs.baselineBr = await measureBaseline(app);
  } finally {
    await app.stop();
  }
  await measure(results);
  console.log(JSON.stringify(results.runs, null, 2));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/progress-writes.json", `${JSON.stringify(results, null, 2)}\n`);
}
