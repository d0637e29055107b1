// What every bench run shares: the command line's options, wrk, the app server started as the bench starts it
// (from ./build, on a fresh data directory), a signed-in reader, the bare baseline server, and the memory trail
// that records each server's RSS after each load run. `run.mjs` and the bench's other parts import it.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startCommand } from "./start-command.mjs";
import { killAtExit, removeAtExit } from "./tools.mjs";

/** `--name=value` and `--flag` options of the command line. */
export const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    // At the first "=" only: a value may hold one (`--pages=/toc?q=`).
    const [name, ...value] = arg.replace(/^--/, "").split("=");
    return [name, value.length ? value.join("=") : true];
  }),
);
export const duration = Number(args.duration ?? 10);
export const connections = 50;

/**
 * The servers whose memory the bench follows, to catch a leak: each load run records, for the server it
 * loaded, its RSS and its high-water mark after the run, so a peak can be traced to the run that made it.
 */
export const watched = [];
export const memoryTrail = [];

export function wrk(url, headers = {}, seconds = duration, script = undefined, env = {}) {
  const result = wrkRun(url, headers, seconds, script, env);
  const server = watched.find((app) => url.startsWith(`${app.base}/`));
  if (server)
    memoryTrail.push({
      server: server.name,
      run: `${url.slice(server.base.length)}${headers.Cookie ? " (signed in)" : ""}${script ? ` ${path.basename(script)}` : ""}`,
      rssMB: Math.round(server.rssMB()),
      peakRssMB: Math.round(server.peakRssMB()),
    });
  return result;
}

export function wrkRun(url, headers, seconds, script, env) {
  // wrk leaves a reply slower than its timeout (2 s by default) out of the latency figures, counting it as a
  // socket error: a page answering in 2 to 4 s under 50 connections showed a p99 of "2.00 s". With 10 s,
  // p99 is the slow replies' own figure, and a timeout is counted (and fails a p99 budget).
  const flags = ["-t2", `-c${connections}`, `-d${seconds}s`, "--latency", "--timeout", "10s"];
  if (script) flags.push("-s", script);
  for (const [name, value] of Object.entries(headers)) flags.push("-H", `${name}: ${value}`);
  const out = execFileSync("wrk", [...flags, url], { encoding: "utf8", env: { ...process.env, ...env } });
  const ms = (label) => {
    const match = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(out);
    if (!match) return null;
    const value = Number(match[1]);
    return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
  };
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50: ms("50"),
    p99: ms("99"),
    non2xx: Number(errors?.[1] ?? 0),
    timeouts: Number(/Socket errors:.*timeout (\d+)/.exec(out)?.[1] ?? 0),
  };
}

/** GET on a fresh connection: after a load run, the server may have closed any kept-alive socket. */
export function fetchText(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => resolve(body));
      })
      .on("error", reject);
  });
}

export async function waitFor(url) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}

/** `npm run content -- <command>` on a data directory, its peak memory recorded under `name`. */
export const content = (name, dataDir, ...command) => contentWith({}, name, dataDir, ...command);

/** As `content`, with more of the environment (a `DATABASE_URL`: the command runs on that database). */
export function contentWith(env, name, dataDir, ...command) {
  const peakFile = path.join(dataDir, "..", `${path.basename(dataDir)}-peak-rss`);
  execFileSync(
    process.execPath,
    ["--require", "./bench/peak-rss.cjs", "--import", "tsx", "scripts/content.ts", ...command],
    {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", BENCH_PEAK_RSS: peakFile, ...env },
      stdio: "ignore",
    },
  );
  const peakRssMB = Math.round(Number(fs.readFileSync(peakFile, "utf8")) / 1024);
  fs.rmSync(peakFile, { force: true });
  // A process of its own, before the server starts: its most held is its figure. A fixture, not the site.
  memoryTrail.push({
    fixture: true,
    server: `${name}: npm run content -- ${command[0]}`,
    run: "its own process",
    rssMB: peakRssMB,
    peakRssMB,
  });
}

/** The CPU time a process has used so far (user and system, from /proc), in ms. */
export function cpuMs(pid) {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * Waits until the server has finished its background work (the kept pages' best-quality recompression after
 * the loads and edits, ADR 9): below 5 % of a core over a second, twice running, or 60 s at most. Lighthouse
 * measures the browser's main thread, and on two cores a busy server beside it inflated the blocking time
 * (TBT medians 210-264 ms measured right after the loads, 66-161 ms on the same build with the server quiet).
 */
export async function waitForQuiet(app) {
  let quiet = 0;
  let seconds = 0;
  for (; seconds < 60 && quiet < 2; seconds++) {
    const before = app.cpuMs();
    await new Promise((r) => setTimeout(r, 1000));
    quiet = app.cpuMs() - before < 50 ? quiet + 1 : 0;
  }
  console.log(`${app.name}: quiet after ${seconds} s`);
}

export const memoryMB = (pid, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) /
  1024;

/** Ports `fetch` refuses to connect to (the Fetch standard's "bad ports"), among those the servers may take. */
const FETCH_BAD_PORTS = new Set([3659, 4045, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697]);

/** A port from `from` to `from + span - 1`, at random (runs side by side rarely meet), that `fetch` may ask. */
export function randomPort(from, span) {
  let port;
  do port = from + Math.floor(Math.random() * span);
  while (FETCH_BAD_PORTS.has(port));
  return port;
}

/**
 * The app server from ./build on a fresh data directory. `fixtures`: more `npm run content` commands (each a
 * list of its words) run on its database (`env.DATABASE_URL`'s, else the data directory's), after the content's
 * import, before the server starts. With `readers`, that many generated readers are added the same way, each
 * signed in: `app.cookies` is the file of their session cookies, one `session=<token>` a line, for loads of
 * many distinct readers.
 */
export async function startApp({
  name,
  large = false,
  contentDir = "content",
  env = {},
  fixtures = [],
  readers = 0,
}) {
  const dataDir = removeAtExit(fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-")));
  // As `npm start` on a fresh machine: the server finds the database empty and loads the content itself, so its
  // first start includes the import. The long serial and its readers are the bench's own fixtures, made by
  // `npm run content` before the server starts (each its own process, recorded apart).
  if (large) {
    content(name, dataDir, "import", contentDir);
    content(name, dataDir, "generate-large");
    // As many readers as a serial this long has (ADR 70), each with some reading behind them.
    content(name, dataDir, "generate-readers", "10000");
  }
  const cookies = readers
    ? removeAtExit(path.join(dataDir, "..", `${path.basename(dataDir)}-cookies`))
    : undefined;
  const commands = [
    ...fixtures,
    ...(cookies
      ? [
          ["generate-readers", String(readers)],
          ["generate-sessions", String(readers), cookies],
        ]
      : []),
  ];
  if (commands.length && !large) contentWith(env, name, dataDir, "import", contentDir);
  for (const command of commands) contentWith(env, name, dataDir, ...command);
  const port = randomPort(large ? 3750 : contentDir === "content" ? 3600 : 3450, 150);
  // One log per server, kept after the bench (to read after a failure), overwritten by the next run.
  const logFile = path.join(os.tmpdir(), `cc-bench-${name.replace(/[^\w]+/g, "-")}.log`);
  const log = fs.openSync(logFile, "w");
  // `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"`: flags for the servers' node (a profile of a run).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const start = startCommand();
  const child = spawn(process.execPath, [...start.flags, ...nodeArgs, "server.mjs"], {
    env: {
      ...process.env,
      // As `npm start` runs it (NODE_ENV=production, two malloc arenas: ADR 37), then the bench's own.
      ...start.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      CONTENT_DIR: contentDir,
      SIGNUP_LIMIT_PER_HOUR: "1000",
      ...env,
    },
    // The log at its default level (info: an access line per request), written to a file as an operator's
    // pipe or redirection would take it: the bench measures what `npm start` runs, logging included.
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  killAtExit(child);
  child.once("exit", (code, signal) => {
    if (code !== 0) console.error(`the app server exited (${code ?? signal}): see ${logFile}`);
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`);
  const app = {
    name,
    base,
    dataDir,
    cookies,
    pid: child.pid,
    logFile,
    rssMB: () => memoryMB(child.pid, "VmRSS"),
    // The most the process has held at any moment since it started (the kernel's high-water mark).
    peakRssMB: () => memoryMB(child.pid, "VmHWM"),
    cpuMs: () => cpuMs(child.pid),
    stop: async () => {
      // A later server may take the same port: a stopped one is no longer the one its address names.
      const at = watched.indexOf(app);
      if (at >= 0) watched.splice(at, 1);
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (cookies) fs.rmSync(cookies, { force: true });
    },
  };
  // Its first start: the database opened (a fresh data directory starts from the build's template, ADR 52)
  // and, but for the long serial, the content loaded into it.
  memoryTrail.push({
    server: name,
    run: "first start",
    rssMB: Math.round(app.rssMB()),
    peakRssMB: Math.round(app.peakRssMB()),
  });
  watched.push(app);
  return app;
}

/** A form POST to the app, as its own pages send it. */
export const postForm = (base, pathname, fields, cookie) =>
  fetch(`${base}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: base, "sec-fetch-site": "same-origin", ...(cookie && { cookie }) },
    body: new URLSearchParams(fields),
  });

/**
 * Registers a reader over HTTP and returns its session cookie. Registration answers before the account exists
 * (ADR 16), so the sign-in is tried until the account is there.
 */
export async function signedInCookie(base) {
  return (await signedIn(base)).cookie;
}

/** As `signedInCookie`, with the account's e-mail. */
export async function signedIn(base) {
  const id = `bench${Date.now()}`;
  const post = (pathname, fields) => postForm(base, pathname, fields);
  const who = { email: `${id}@example.com`, password: "bench secret" };
  await post("/register", { ...who, username: id, confirmPassword: who.password, acceptTerms: "on" });
  for (let attempt = 0; attempt < 50; attempt++) {
    const cookie = (await post("/login", who)).headers
      .getSetCookie()
      .find((c) => c.startsWith("session="))
      ?.split(";")[0];
    if (cookie) return { cookie, email: who.email };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("could not sign in for the bench");
}

/**
 * The baseline: a bare Node server, in its own process (wrk blocks this one), answering every request with
 * the same page bytes, pre-compressed.
 */
export async function startBaseline(html) {
  const file = removeAtExit(path.join(os.tmpdir(), `cc-baseline-${process.pid}.html`));
  fs.writeFileSync(file, html);
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, ["bench/baseline-server.mjs", file, String(port)], {
    stdio: "ignore",
  });
  killAtExit(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(base);
  return {
    base,
    stop: async () => {
      child.kill();
      await new Promise((r) => child.once("exit", r));
      fs.rmSync(file, { force: true });
    },
  };
}

/** Of several runs of the same load, the one with the most requests a second. */
export const best = (...runs) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

/**
 * The baseline's figure (`baselineBr`) for a bench part run on its own: the bare server sending `app`'s
 * chapter page, brotli, warmed up for 3 s, then the best of three runs. `npm run bench` measures it once,
 * interleaved with the chapter pages (run.mjs), and a part run inside it finds it in `results.runs`.
 */
export async function measureBaseline(app) {
  const baseline = await startBaseline(await fetchText(`${app.base}/chapter/1`));
  const br = { "Accept-Encoding": "br" };
  try {
    wrkRun(`${baseline.base}/chapter/1`, br, 3);
    return best(...[0, 1, 2].map(() => wrkRun(`${baseline.base}/chapter/1`, br, duration)));
  } finally {
    await baseline.stop();
  }
}
