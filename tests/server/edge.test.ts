import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerAndSignIn, registerReader } from "../support/http";
import { waitForMail } from "../support/mail";
import { waitFor } from "../support/poll";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";
import { newReader } from "../support/unique";

/**
 * The server's edge over HTTP (ADR 15): where a redirect may go, how much a body may hold, what a route
 * parameter or field may be before it reaches the database, and what an error leaves in the log.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-edge-"));
const TEST_SECRET = crypto.randomBytes(32).toString("hex");
let server: RunningServer;
let origin = "";

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: origin,
    LOG_LEVEL: "info",
    TEST_PAYMENT_SECRET: TEST_SECRET,
  });
  server.url = origin;
  await waitUntilReady(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** One reader for the whole file: registrations from one address are throttled. */
let reader: Promise<{ client: Client; who: { email: string; password: string } }> | undefined;
function signedInReader() {
  reader ??= register();
  return reader;
}

async function register() {
  const who = newReader("edge", "edge secret");
  const client = new Client(origin);
  const response = await registerAndSignIn(client, who, (to) => waitForMail(dataDir, to));
  expect(response.status).toBe(302);
  return { client, who };
}

/** A Location a browser resolves on this origin and nowhere else. */
function expectOnOrigin(location: string | null) {
  expect(location).not.toBeNull();
  const target = location as string;
  expect(target.startsWith("/")).toBe(true);
  expect(target.startsWith("//")).toBe(false);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a browser drops them from a Location.
  expect(target).not.toMatch(/[\\\u0000-\u001f\u007f]/);
  expect(new URL(target, origin).origin).toBe(origin);
}

const redirectVectors = [
  "/..//evil.example",
  "/.//evil.example/x",
  "/%2e%2e//evil.example",
  "/a/..//evil.example",
  "/../\\evil.example",
  "//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "https:evil.example",
  "https://evil.example/",
  "/%5cevil.example",
  "%2f%2fevil.example",
  "/\t/evil.example",
  "//\tevil.example",
  "/\n/evil.example",
  "javascript:alert(1)",
  "/\u2215\u2215evil.example",
  "/\uff0f\uff0fevil.example",
];

describe("redirect targets from a request end on this origin", () => {
  it.each(redirectVectors)(
    "%j through GET /login, POST /login, /preferences and /reader/settings",
    async (vector) => {
      const { client, who } = await signedInReader();
      const viaGet = await client.get(`/login?redirectTo=${encodeURIComponent(vector)}`);
      expect(viaGet.status).toBe(302);
      expectOnOrigin(viaGet.headers.get("location"));

      const viaPreferences = await client.post("/preferences", { lang: "en", redirectTo: vector });
      expect(viaPreferences.status).toBe(302);
      expectOnOrigin(viaPreferences.headers.get("location"));

      const viaSettings = await client.post("/reader/settings", {
        fontSize: "16",
        lineHeight: "1.75",
        fontFamily: "serif",
        redirectTo: vector,
      });
      expect(viaSettings.status).toBe(302);
      expectOnOrigin(viaSettings.headers.get("location"));

      const fresh = new Client(origin);
      const viaLogin = await fresh.post("/login", {
        email: who.email,
        password: who.password,
        redirectTo: vector,
      });
      expect(viaLogin.status).toBe(302);
      expectOnOrigin(viaLogin.headers.get("location"));
    },
  );

  it("still goes back to a page on the site", async () => {
    const { client } = await signedInReader();
    const response = await client.get(`/login?redirectTo=${encodeURIComponent("/chapter/2?x=1")}`);
    expect(response.headers.get("location")).toBe("/chapter/2?x=1");
  });
});

/** The server process's resident memory, in MB. */
function serverRssMb(): number {
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/**
 * Sends a body of `bytes` in 64 KB chunks (declared with Content-Length, or chunked), as fast as the server
 * takes it, and resolves with the answer, which may come before the body is all sent.
 */
function post(
  pathname: string,
  bytes: number,
  { chunked = false, headers = {} }: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; type: string; sentWhenAnswered: number }> {
  let sent = 0;
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${pathname}`, {
      method: "POST",
      headers: {
        origin,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
        ...(chunked ? {} : { "content-length": String(bytes) }),
        ...headers,
      },
    });
    request.on("response", (response) => {
      const sentWhenAnswered = sent;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          type: String(response.headers["content-type"]),
          sentWhenAnswered,
        }),
      );
    });
    // The server closes the connection after its 413: the unsent rest fails to write, as it should.
    request.on("error", (error) => {
      if (!request.destroyed || !(error as NodeJS.ErrnoException).code?.startsWith("E")) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (sent < bytes && !request.destroyed) {
        const size = Math.min(chunk.length, bytes - sent);
        sent += size;
        if (!request.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          request.once("drain", pump);
          return;
        }
      }
      if (sent >= bytes) request.end();
    };
    request.on("error", () => {});
    pump();
  });
}

describe("request bodies are limited by route before they are read", () => {
  it("answers a declared 600 MB form with 413 at once, in the reader's language", async () => {
    // The same refusal once before measuring: the first one loads its page's code and the Spanish catalogue
    // (13.7 MB of RSS was seen on a first refusal), which is not the body being held.
    expect(
      (await post("/register", 1024 * 1024, { headers: { accept: "text/html", "accept-language": "es" } }))
        .status,
    ).toBe(413);
    const before = serverRssMb();
    const answer = await post("/register", 600 * 1024 * 1024, {
      headers: { accept: "text/html", "accept-language": "es" },
    });
    expect(answer.status).toBe(413);
    // "At once" as a code path, not a clock: the answer comes before the client could send the body.
    expect(answer.sentWhenAnswered).toBeLessThan(600 * 1024 * 1024);
    expect(answer.type).toMatch(/text\/html/);
    expect(answer.body).toContain('lang="es"');
    expect(answer.body).toContain("Demasiado para enviar");
    expect(serverRssMb() - before).toBeLessThan(10);
  });

  it("cuts a chunked 100 MB form at its limit without growing the server", async () => {
    // As above, an English refusal once before measuring: its first render loads code and the catalogue (11 MB
    // of RSS was seen), which is not the body being held.
    expect(
      (await post("/register", 1024 * 1024, { chunked: true, headers: { accept: "text/html" } })).status,
    ).toBe(413);
    const before = serverRssMb();
    const answer = await post("/register", 100 * 1024 * 1024, {
      chunked: true,
      headers: { accept: "text/html" },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("Too much to send");
    expect(serverRssMb() - before).toBeLessThan(10);
  });

  it("answers a 40 MB upload to /admin/uploads with 413 at once, saying the limit in MB (ADR 33)", async () => {
    const answer = await post("/admin/uploads", 40 * 1024 * 1024, {
      headers: { accept: "text/html", "content-type": "multipart/form-data; boundary=x" },
    });
    expect(answer.status).toBe(413);
    expect(answer.sentWhenAnswered).toBeLessThan(40 * 1024 * 1024);
    expect(answer.body).toContain("larger than this page accepts (10 MB). Nothing was saved");
  });

  it("answers JSON to a script: progress beacons over 16 KB, webhooks over 1 MB", async () => {
    const beacon = await post("/reader/progress", 17 * 1024, {
      headers: { "content-type": "application/json" },
    });
    expect(beacon.status).toBe(413);
    expect(JSON.parse(beacon.body)).toEqual({ error: "payload-too-large", limit: 16 * 1024 });
    const chunkedBeacon = await post("/reader/progress", 40 * 1024, { chunked: true });
    expect(chunkedBeacon.status).toBe(413);
    const webhook = await post("/webhooks/test", 1024 * 1024 + 1);
    expect(webhook.status).toBe(413);
  });

  it("lets a body within its limit through", async () => {
    const webhook = await post("/webhooks/test", 200 * 1024);
    expect(webhook.status).toBe(400); // read whole, then refused for its signature
    const form = await post("/register", 60 * 1024, { headers: { accept: "text/html" } });
    expect(form.status).toBe(400);
  });

  it("echoes no more of a long username than the form needs", async () => {
    const client = new Client(origin);
    const response = await client.post("/register", { username: "u".repeat(60_000), email: "x" });
    expect(response.status).toBe(400);
    expect((await response.text()).length).toBeLessThan(60_000);
  });
});

function signedWebhook(body: unknown) {
  const raw = JSON.stringify(body);
  const timestamp = Math.floor(Date.now() / 1000);
  const hmac = crypto.createHmac("sha256", TEST_SECRET).update(`${timestamp}.${raw}`).digest("hex");
  return fetch(`${origin}/webhooks/test`, {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/json", "x-test-payment-signature": `t=${timestamp},v1=${hmac}` },
  });
}

describe("numbers, dates and text are checked before any query", () => {
  it("answers route parameters the database would refuse with 404", async () => {
    for (const pathname of ["/chapter/99999999999", "/chapter/2147483648", "/shop/product/2147483648"]) {
      const response = await fetch(`${origin}${pathname}`);
      expect(response.status, pathname).toBe(404);
    }
    // A NUL is refused before any route (ADR 64).
    for (const pathname of ["/pay/test/%00", "/wiki/characters/%00", "/shop/product/%00"]) {
      const response = await fetch(`${origin}${pathname}`);
      expect(response.status, pathname).toBe(400);
    }
  });

  it("answers out-of-range progress with 400", async () => {
    const { client } = await signedInReader();
    const progress = (lastReadAt: string) => ({
      scrollPosition: 0.5,
      paragraph: 3,
      completionPercentage: 50,
      readingTime: 10,
      completed: false,
      bookmarks: [],
      lastReadAt,
    });
    const send = (entries: unknown[]) =>
      fetch(`${origin}/reader/progress`, {
        method: "POST",
        body: JSON.stringify({ entries }),
        headers: { cookie: client.cookieHeader, origin, "content-type": "application/json" },
      });
    for (const chapter of [2 ** 31, 2 ** 53, 99999999999]) {
      expect((await send([{ chapter, progress: progress("2026-11-25T00:00:00Z") }])).status).toBe(400);
    }
    for (const lastReadAt of ["+275760-09-13T00:00:00Z", "-004714-01-01T00:00:00Z", "0000-01-01T00:00:00Z"]) {
      expect((await send([{ chapter: 1, progress: progress(lastReadAt) }])).status).toBe(400);
    }
    expect((await send([{ chapter: 1, progress: progress("2026-11-25T00:00:00Z") }])).status).toBe(200);
    const read = await client.get("/reader/progress?chapter=99999999999");
    expect(read.status).toBe(400);
  });

  it("refuses a signed webhook event with a NUL byte with 400", async () => {
    const response = await signedWebhook({
      id: "evt_\u0000",
      type: "checkout.approved",
      data: { session: "tps_\u0000", amountCents: 100, currency: "USD" },
    });
    // Refused at the edge, as any text the database cannot store (ADR 64).
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "unstorable-text" });
  });

  it("never answers random parameters and fields with a 5xx (fuzz)", async () => {
    const { client } = await signedInReader();
    const segment = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom("\u0000", "%00", "99999999999", "-1", "0", "2147483648", "1e9", "..", "%E0%A4%A"),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    );
    const pathFor = fc.tuple(
      fc.constantFrom(
        "/chapter/",
        "/shop/product/",
        "/wiki/characters/",
        "/wiki/",
        "/pay/test/",
        "/reader/progress?chapter=",
        "/coins?payment=",
        "/shop?category=",
        "/auth/",
        "/media/",
      ),
      segment,
    );
    await fc.assert(
      fc.asyncProperty(pathFor, async ([prefix, value]) => {
        const encoded = /^%|\.\./.test(value) ? value : encodeURIComponent(value);
        const response = await client.get(`${prefix}${encoded}`);
        await response.arrayBuffer();
        return response.status < 500;
      }),
      { numRuns: 120 },
    );
    const entry = fc.record({
      chapter: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 31), fc.string()),
      progress: fc.record({
        scrollPosition: fc.double(),
        paragraph: fc.oneof(fc.integer(), fc.constant(2 ** 31)),
        completionPercentage: fc.integer({ min: -1, max: 101 }),
        readingTime: fc.integer(),
        completed: fc.boolean(),
        bookmarks: fc.array(fc.integer(), { maxLength: 3 }),
        lastReadAt: fc.oneof(
          fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? "x" : d.toISOString())),
          fc.string(),
          fc.constantFrom("\u0000", "2026-11-25T00:00:00Z\u0000", "\ud800", "a\udfffb"),
        ),
      }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 3 }), async (entries) => {
        const response = await fetch(`${origin}/reader/progress`, {
          method: "POST",
          body: JSON.stringify({ entries }),
          headers: { cookie: client.cookieHeader, origin, "content-type": "application/json" },
        });
        await response.arrayBuffer();
        return response.status < 500;
      }),
      { numRuns: 80 },
    );
  }, 60_000);
});

describe("the log", () => {
  it("answers a missing or bad /media path with 4xx without a stack trace, and logs the full path", async () => {
    const from = server.output().length;
    const missing = await fetch(`${origin}/media/nothing/here.png?v=1`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${origin}/media/%00`)).status).toBe(400);
    expect((await fetch(`${origin}/media/%E0%A4%A`)).status).toBe(400);
    // The access log line is written as the response ends, after the client has it.
    await waitFor(
      () => (server.output().slice(from).includes('"url":"/media/%E0%A4%A"') ? true : undefined),
      {
        what: "the log lines of the three requests",
      },
    );
    const lines = server.output().slice(from).split("\n").filter(Boolean);
    expect(lines.some((line) => line.includes('"url":"/media/nothing/here.png?v=1"'))).toBe(true);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it("holds only JSON lines: no stack trace, no query parameters", () => {
    for (const line of server.output().split("\n").filter(Boolean)) {
      expect(() => JSON.parse(line), line).not.toThrow();
      expect(line).not.toMatch(/ at |params:|\\n {4}at /);
    }
  });
});

describe("the releases feed", () => {
  it("answers Atom and RSS with their types, links on this origin, kept by caches for 5 minutes", async () => {
    for (const [path, type] of [
      ["/feed.atom", "application/atom+xml; charset=utf-8"],
      ["/feed.rss", "application/rss+xml; charset=utf-8"],
    ] as const) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toBe(type);
      expect(response.headers.get("cache-control"), path).toBe("public, max-age=300");
      const body = await response.text();
      expect(body, path).toContain(`${origin}/chapter/1`);
      expect(body, path).toContain("Chapter 1: ");
    }
    // The site's pages name the feed for feed readers to find.
    expect(await (await fetch(`${origin}/`)).text()).toContain(
      '<link rel="alternate" type="application/atom+xml"',
    );
  });

  it("answers sitemap.xml and robots.txt for search engines, with this origin's addresses", async () => {
    const map = await fetch(`${origin}/sitemap.xml`);
    expect(map.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(await map.text()).toContain(`<loc>${origin}/chapter/1</loc>`);
    const robots = await fetch(`${origin}/robots.txt`);
    expect(robots.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await robots.text()).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });

  it("gives a signed-in reader a private feed address from /settings; a new one makes the old one a 404", async () => {
    const client = new Client(origin);
    await registerReader(client, dataDir, "feeder");
    const address = async () => {
      const answer = await client.post("/settings", { intent: "feedToken" });
      expect(answer.status).toBe(200);
      const url = /value="(http[^"]*\/feed\/private\/[^"]+)"/.exec(await answer.text())?.[1];
      expect(url).toBeDefined();
      return url ?? "";
    };
    const first = await address();
    const feed = await fetch(first);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(await feed.text()).toContain('<content type="html">');
    const second = await address();
    expect((await fetch(first)).status).toBe(404);
    expect((await fetch(second)).status).toBe(200);
    expect((await fetch(`${origin}/feed/private/not-a-real-token-at-all-0000`)).status).toBe(404);
  });
});
