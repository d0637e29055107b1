// The release evening's load generator (ADR 70): a process of its own (release-evening.mjs starts it, pinned
// to another core than the server's), playing evening-traffic.mjs for N signed-in readers and their visitors
// at once. Every reader keeps its own cookie; the requests go over kept-alive sockets, as many as are in
// flight at a moment, so no request waits in the generator for a socket. It times each request from its send
// to its last byte, by page, and prints the figures as one JSON line when the run ends.
import fs from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import zlib from "node:zlib";
import { readerEvening, startOfEvening, unlockRequest, visitorEvening } from "./evening-traffic.mjs";

const config = JSON.parse(process.argv[2]);
const { bases, cookiesFile, readers, visitors, rampMs, steadyMs, cadenceMs, site, seed } = config;
const cookies = fs.readFileSync(cookiesFile, "utf8").split("\n").filter(Boolean).slice(0, readers);
if (cookies.length < readers)
  throw new Error(`${cookiesFile} holds ${cookies.length} sessions, not ${readers}`);

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
// Set before the run (the readers found reading unlock their chapter first, unmeasured), then the clock starts.
let startedAt = Number.POSITIVE_INFINITY;
let endsAt = Number.POSITIVE_INFINITY;
const timings = new Map();
let errors = 0;
const errorSamples = [];
let inFlight = 0;

function send(
  base,
  cookie,
  { label, path, method = "GET", headers = {}, body },
  started = performance.now(),
  retried = false,
) {
  const url = new URL(path, base);
  return new Promise((resolve) => {
    inFlight++;
    const request = http.request(
      url,
      {
        agent,
        method,
        headers: {
          // As Chromium asks (it also takes zstd, which the server does not send).
          "Accept-Encoding": "gzip, deflate, br",
          ...(method === "POST" && { Origin: base, "Sec-Fetch-Site": "same-origin" }),
          ...(cookie && { Cookie: cookie }),
          ...headers,
        },
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          inFlight--;
          const ms = performance.now() - started;
          const status = response.statusCode ?? 0;
          if (measuring()) record(label, ms, status, path);
          const bytes = Buffer.concat(chunks);
          const brotli = response.headers["content-encoding"] === "br";
          // Decompressed only when the model reads it (the unlock form, a visitor's view): a browser's cost.
          resolve({
            status,
            get text() {
              return (brotli ? zlib.brotliDecompressSync(bytes) : bytes).toString("utf8");
            },
          });
        });
      },
    );
    request.on("error", (error) => {
      inFlight--;
      // A kept-alive socket the server closed (idle past its keep-alive timeout) just as the request went out:
      // a browser sends it again on a new connection, once, and so does the generator; the time counts.
      if (request.reusedSocket && error.code === "ECONNRESET" && !retried) {
        resolve(send(base, cookie, { label, path, method, headers, body }, started, true));
        return;
      }
      if (measuring()) record(label, performance.now() - started, 0, `${path}: ${error.message}`);
      resolve({ status: 0, text: "" });
    });
    if (body) request.end(body);
    else request.end();
  });
}

/** Whether a reply now counts: inside the run, not the unlocks before it nor a reply after its end. */
const measuring = () => Date.now() >= startedAt && Date.now() < endsAt;

function record(label, ms, status, what) {
  if (!timings.has(label)) timings.set(label, { ms: [], errors: 0 });
  const page = timings.get(label);
  page.ms.push(ms);
  // 2xx, and the 3xx a page may answer with; anything else is an error a reader would see.
  if (status < 200 || status >= 400) {
    page.errors++;
    errors++;
    if (errorSamples.length < 10) errorSamples.push(`${status} ${label} ${what}`);
  }
}

// A small deterministic generator, so the same seed plays the same evening.
let state = seed >>> 0 || 1;
const random = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 0x100000000;
};
const sleep = (ms) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(ms, endsAt - Date.now()))));
const until = () => endsAt;

// Where each reader and visitor is in their evening when the run starts (the same for the same seed).
const people = Array.from({ length: readers + visitors }, (_, i) => ({
  reader: i < readers,
  // Readers spread over the servers (as behind a load balancer), arriving evenly over the ramp.
  base: bases[i % bases.length],
  cookie: i < readers ? cookies[i] : undefined,
  start: startOfEvening(random),
  arrival: random() * rampMs,
}));

// A signed-in reader found reading has unlocked the chapter before (their page shows its text): done here,
// before the clock starts, a few at a time, and checked, so the run measures the evening and not this.
const unlocking = people.filter((person) => person.reader && person.start.from !== undefined);
const unlockOne = async (person) => {
  const { status } = await send(person.base, person.cookie, unlockRequest(site.newest.number));
  // Not enough coins (every ninth generated reader spent theirs on earlier chapters, ADR 101): not found
  // reading, they open the chapter when the run starts, as a reader arriving does, and find it locked.
  if (status === 409) person.start = { away: 0 };
  else if (status < 200 || status >= 400)
    throw new Error(`a reader's unlock before the run answered ${status}`);
};
for (let i = 0; i < unlocking.length; i += 16) await Promise.all(unlocking.slice(i, i + 16).map(unlockOne));

startedAt = Date.now();
endsAt = startedAt + rampMs + steadyMs;
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
const cpuBefore = process.cpuUsage();
const evenings = people.map(({ reader, base, cookie, start, arrival }) => {
  const http = (request) =>
    Date.now() < endsAt ? send(base, cookie, request) : Promise.resolve({ status: 0, text: "" });
  const evening = reader ? readerEvening : visitorEvening;
  return sleep(arrival).then(() => evening({ http, sleep, random, site, cadenceMs, until }, start));
});
await Promise.all(evenings);
lag.disable();
agent.destroy();

const cpu = process.cpuUsage(cpuBefore);
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const pages = {};
for (const [label, { ms, errors: pageErrors }] of timings) {
  const sorted = Float64Array.from(ms).sort();
  pages[label] = {
    requests: sorted.length,
    p50: Math.round(percentile(sorted, 50) * 10) / 10,
    p99: Math.round(percentile(sorted, 99) * 10) / 10,
    errors: pageErrors,
  };
}
const seconds = (Date.now() - startedAt) / 1000;
const requests = Object.values(pages).reduce((sum, page) => sum + page.requests, 0);
console.log(
  JSON.stringify({
    readers,
    visitors,
    seconds: Math.round(seconds),
    requests,
    rps: Math.round(requests / seconds),
    errors,
    errorSamples,
    pages,
    generator: {
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      // How late its timers fired (ms): a generator falling behind would show here, not only in the figures.
      eventLoopDelayP99Ms: Math.round(lag.percentile(99) / 1e6),
      inFlightAtEnd: inFlight,
    },
  }),
);
