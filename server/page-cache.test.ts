import crypto from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { parse } from "parse5";
import type { ServerBuild } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { queryCanonicaliser } from "~/features/page-cache/query.server";
import { preferencesFromCookies } from "~/lib/preferences.server";
import { siteRoutes } from "~/routes";
import { waitFor } from "../tests/support/poll";
import { PageCache, type PageCacheOptions, type PendingPage, pendingPage } from "./page-cache";

/**
 * The page cache in front of a real HTTP server on port 0. `next` stands in for Express and React Router
 * (server/react-router.ts): it renders a page, and when the cache marked the request it keeps the page with
 * `store()` and sends the kept copy, as the real render does.
 */

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

type Render = (
  req: IncomingMessage,
  res: ServerResponse,
  page: PendingPage | undefined,
) => void | Promise<void>;

let server: http.Server;
let base = "";
let cache: PageCache;
let revision: number | undefined;
let release: number | undefined;
let releaseAsked: number[];
/** Every call of `next`, with whether the cache marked the request. */
let nexts: { url: string; method: string; pending: PendingPage | undefined }[];
/** Requests that reached the cache (to know when concurrent ones are all waiting). */
let arrivals: number;
let render: Render;

function htmlFor(url: string, extra = ""): string {
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<script nonce="abc">window.__page=${JSON.stringify(url)};</script>`,
    '<script type="module" src="/assets/entry.js"></script>',
    "</head><body>",
    `<h1>Page ${url}</h1><p>${"The Tithe Ledger lay open under the lamp. ".repeat(40)}</p>${extra}`,
    '<script type="module">import("/assets/route.js");</script>',
    '<script>window.__context={&quot;a&quot;:1,"b":"</\\u0073cript"};</script>',
    "</body></html>",
  ].join("");
}

/** What the real render does: keep the page when asked to and shareable, else answer per request. */
const storingRender: Render = async (req, res, page) => {
  if (page) {
    const entry = await cache.store(page, Buffer.from(htmlFor(req.url ?? "/")));
    cache.send(req, res, "render-id", entry, "miss");
    return;
  }
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache" });
  res.end(`<p>per request ${req.url}</p>`);
};

/** A few of the app's routes, as the build lists them, for the query canonicaliser. */
const routes = Object.fromEntries(
  [
    { id: "root", path: "" },
    { id: "routes/home", parentId: "root", index: true },
    { id: "routes/chapter", parentId: "root", path: "chapter/:number" },
    { id: "routes/shop/index", parentId: "root", path: "shop" },
    { id: "routes/auth/login", parentId: "root", path: "login" },
    { id: "routes/toc", parentId: "root", path: "toc" },
  ].map((route) => [route.id, route]),
) as unknown as ServerBuild["routes"];

function makeCache(options: Partial<PageCacheOptions> = {}): PageCache {
  return new PageCache({
    production: true,
    https: false,
    maxBytes: 10 * 1024 * 1024,
    maxAgeMs: 60_000,
    revision: () => revision,
    nextReleaseAfter: async (time) => {
      releaseAsked.push(time);
      return release !== undefined && release > time ? release : undefined;
    },
    preferences: preferencesFromCookies,
    // Visitors without a session; a signed-in reader's group is in a test cookie, or none (personal pages).
    viewer: (_pathname, cookies) => (cookies.has("session") ? cookies.get("group") : "visitor"),
    canonicalQuery: queryCanonicaliser(routes, siteRoutes.match),
    staleMs: 24 * 3_600_000,
    ...options,
  });
}

beforeEach(async () => {
  revision = 1;
  release = undefined;
  releaseAsked = [];
  nexts = [];
  arrivals = 0;
  render = storingRender;
  cache = makeCache();
  server = http.createServer((req, res) => {
    arrivals++;
    cache.handle(req, res, "request-id", () => {
      const page = pendingPage(req);
      nexts.push({ url: req.url ?? "", method: req.method ?? "", pending: page });
      Promise.resolve(render(req, res, page)).catch((error: unknown) => {
        page?.settle(undefined);
        res.destroy(error as Error);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  vi.useRealTimers();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function request(
  path: string,
  { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function decoded(reply: Reply): string {
  const encoding = reply.headers["content-encoding"];
  if (encoding === "br") return zlib.brotliDecompressSync(reply.body).toString("utf8");
  if (encoding === "gzip") return zlib.gunzipSync(reply.body).toString("utf8");
  expect(encoding).toBeUndefined();
  return reply.body.toString("utf8");
}

/** The CSP hash of every inline script, found by an HTML parser (as a browser finds them). */
function scriptHashes(html: string): string[] {
  const hashes: string[] = [];
  type Node = {
    nodeName: string;
    attrs?: { name: string }[];
    childNodes?: Node[];
    content?: Node;
    value?: string;
  };
  const walk = (node: Node) => {
    if (node.nodeName === "script" && !node.attrs?.some((attr) => attr.name === "src")) {
      const text = (node.childNodes ?? []).map((child) => child.value ?? "").join("");
      if (text) hashes.push(`'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`);
    }
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parse(html) as unknown as Node);
  return hashes;
}

/** Waits until `count` requests have reached the cache (so the later ones wait on the first). */
async function arrived(count: number) {
  await waitFor(() => (arrivals >= count ? true : undefined), { interval: 5, what: `${count} arrivals` });
  expect(arrivals).toBe(count);
  // The handler is synchronous for a synchronous viewer, but leave a turn for good measure.
  await new Promise((resolve) => setImmediate(resolve));
}

describe("misses and hits", () => {
  it("marks a miss for the render, then answers later requests itself without calling next", async () => {
    const first = await request("/chapter/1");
    expect(first.status).toBe(200);
    expect(nexts).toHaveLength(1);
    expect(nexts[0]?.pending).toMatchObject({ shared: "public", revision: 1 });
    expect(nexts[0]?.pending?.key).toContain("/chapter/1");
    expect(decoded(first)).toBe(htmlFor("/chapter/1"));
    expect(cache.size.entries).toBe(1);

    for (let i = 0; i < 3; i++) {
      const again = await request("/chapter/1");
      expect(again.status).toBe(200);
      expect(decoded(again)).toBe(htmlFor("/chapter/1"));
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers["x-request-id"]).toBe("request-id");
    }
    expect(nexts).toHaveLength(1);
  });

  it("does not keep a page the render did not store, and marks the next request again", async () => {
    render = (req, res, page) => {
      page?.settle(undefined);
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`fresh ${req.url}`);
    };
    expect((await request("/about")).body.toString()).toBe("fresh /about");
    expect((await request("/about")).body.toString()).toBe("fresh /about");
    expect(nexts.map((call) => Boolean(call.pending))).toEqual([true, true]);
    expect(cache.size.entries).toBe(0);
  });

  it("chooses identity, brotli or gzip by Accept-Encoding; each decodes to the same page", async () => {
    await request("/toc");
    const html = htmlFor("/toc");
    const plain = await request("/toc");
    const br = await request("/toc", { headers: { "accept-encoding": "gzip, deflate, br" } });
    const gz = await request("/toc", { headers: { "accept-encoding": "gzip, deflate" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    for (const reply of [plain, br, gz]) {
      expect(decoded(reply)).toBe(html);
      expect(Number(reply.headers["content-length"])).toBe(reply.body.length);
      expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(reply.headers.vary).toContain("Accept-Encoding");
    }
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(gz.body.length).toBeLessThan(plain.body.length);
    expect(nexts).toHaveLength(1);
  });

  it("has one ETag per encoding and answers a matching If-None-Match with an empty 304", async () => {
    await request("/toc");
    // The brotli copy's ETag changes once with its background upgrade: compare after it.
    await cache.idle();
    const plain = await request("/toc");
    const br = await request("/toc", { headers: { "accept-encoding": "br" } });
    const gz = await request("/toc", { headers: { "accept-encoding": "gzip" } });
    const tags = [plain, br, gz].map((reply) => reply.headers.etag);
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[\w-]+"$/);

    const notModified = await request("/toc", {
      headers: { "accept-encoding": "br", "if-none-match": br.headers.etag ?? "" },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(br.headers.etag);
    expect(notModified.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    // A list of validators naming this one also matches.
    const inList = await request("/toc", {
      headers: { "accept-encoding": "gzip", "if-none-match": `"other", ${gz.headers.etag}` },
    });
    expect(inList.status).toBe(304);

    // Another encoding's tag names other bytes: the page is sent.
    const otherEncoding = await request("/toc", {
      headers: { "accept-encoding": "gzip", "if-none-match": plain.headers.etag ?? "" },
    });
    expect(otherEncoding.status).toBe(200);
    expect(decoded(otherEncoding)).toBe(htmlFor("/toc"));
    const stale = await request("/toc", { headers: { "if-none-match": '"something-else"' } });
    expect(stale.status).toBe(200);
    expect(nexts).toHaveLength(1);
  });

  it("answers HEAD with the headers of the page and no body", async () => {
    await request("/toc");
    await cache.idle();
    const get = await request("/toc", { headers: { "accept-encoding": "br" } });
    const head = await request("/toc", { method: "HEAD", headers: { "accept-encoding": "br" } });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(nexts).toHaveLength(1);
  });

  it("keeps a page too large for a quarter of the cache out of it, but still sends it", async () => {
    cache = makeCache({ maxBytes: 4096 });
    const first = await request("/toc");
    expect(decoded(first)).toBe(htmlFor("/toc"));
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    await request("/toc");
    expect(nexts).toHaveLength(2);
  });
});

describe("retiring entries", () => {
  it("renders again once the content revision moves", async () => {
    await request("/toc");
    await request("/toc");
    expect(nexts).toHaveLength(1);
    revision = 2;
    await request("/toc");
    expect(nexts).toHaveLength(2);
    expect(nexts[1]?.pending?.revision).toBe(2);
    await request("/toc");
    expect(nexts).toHaveLength(2);
  });

  it("renders per request while the revision is unknown and nothing was kept", async () => {
    revision = undefined;
    await request("/toc");
    await request("/toc");
    expect(nexts).toHaveLength(2);
    expect(nexts.every((call) => call.pending === undefined)).toBe(true);
    expect(cache.size.entries).toBe(0);
  });
  it("retires an entry at the next chapter release after its render, before maxAgeMs", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2026-03-03T17:59:00Z");
    vi.setSystemTime(start);
    release = start + 60_000;
    cache = makeCache({ maxAgeMs: 10 * 60_000 });
    await request("/chapter/5");
    expect(releaseAsked).toEqual([start]);
    vi.setSystemTime(release - 1);
    await request("/chapter/5");
    expect(nexts).toHaveLength(1);
    vi.setSystemTime(release);
    await request("/chapter/5");
    expect(nexts).toHaveLength(2);
  });

  it("retires an entry after maxAgeMs when no release comes first", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2026-03-03T12:00:00Z");
    vi.setSystemTime(start);
    release = start + 3_600_000;
    cache = makeCache({ maxAgeMs: 60_000 });
    await request("/toc");
    vi.setSystemTime(start + 59_999);
    await request("/toc");
    expect(nexts).toHaveLength(1);
    vi.setSystemTime(start + 60_000);
    await request("/toc");
    expect(nexts).toHaveLength(2);
  });

  it("evicts the least recently used pages for a page asked for more often than they were (TinyLFU)", async () => {
    // Incompressible pages of known size, so a few fill the cache.
    const bodies = new Map<string, string>();
    render = async (req, res, page) => {
      const url = req.url ?? "/";
      if (!bodies.has(url)) bodies.set(url, crypto.randomBytes(3000).toString("base64"));
      const entry = await cache.store(page as PendingPage, Buffer.from(`<p>${bodies.get(url)}</p>`));
      cache.send(req, res, "render-id", entry);
    };
    const maxBytes = 64 * 1024;
    cache = makeCache({ maxBytes });
    await request("/wiki/page-0");
    // As many pages as fit with room to spare (each about a sixth of the cache), then page 0 is used again,
    // so page 1 is the least recently used.
    const fit = Math.floor(maxBytes / cache.size.bytes) - 1;
    expect(fit).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < fit; i++) await request(`/wiki/page-${i}`);
    expect(cache.size.entries).toBe(fit);
    await request("/wiki/page-0");
    expect(nexts).toHaveLength(fit);
    // Pages asked for once each: the first is kept in the room left; the others, asked for no more often than
    // the kept ones were, are rendered and not kept, pushing nothing out.
    const last = fit + 2;
    for (let i = fit; i <= last; i++) {
      await request(`/wiki/page-${i}`);
      expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(nexts).toHaveLength(last + 1);
    expect(cache.size.entries).toBe(fit + 1);
    // Asked for a second time, the newest page is kept, in place of the least recently used (page 1).
    await request(`/wiki/page-${last}`);
    expect(nexts).toHaveLength(last + 2);
    await request(`/wiki/page-${last}`);
    await request("/wiki/page-0");
    expect(nexts).toHaveLength(last + 2);
    expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    await request("/wiki/page-1");
    expect(nexts).toHaveLength(last + 3);
  });

  it("keeps the pages readers come back to through a flood of keys each asked for once", async () => {
    const maxBytes = 256 * 1024;
    cache = makeCache({ maxBytes });
    const popular = ["/", "/toc", "/shop"];
    for (let round = 0; round < 3; round++) for (const page of popular) await request(page);
    expect(nexts).toHaveLength(3);
    // Many more one-off pages than fit (each about 6 KB with its overhead): 4 languages × 3 themes × zones.
    const zones = Intl.supportedValuesOf("timeZone").slice(0, 40);
    let flood = 0;
    for (const zone of zones)
      for (const lang of ["en", "es", "fr", "ja"])
        for (const theme of ["light", "dark", ""]) {
          flood++;
          await request("/chapter/1", { headers: { cookie: `tz=${zone}; lang=${lang}; theme=${theme}` } });
        }
    expect(flood * 6000).toBeGreaterThan(2 * maxBytes);
    expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    const before = nexts.length;
    for (const page of popular) expect((await request(page)).headers["x-cache"]).toBe("hit");
    expect(nexts).toHaveLength(before);
  });

  it("keeps at most maxVariantsPerUrl variants of one URL, then only in place of a less asked-for one", async () => {
    cache = makeCache({ maxVariantsPerUrl: 3 });
    const asked = (zone: string) =>
      request("/chapter/1", { headers: { cookie: `tz=${zone}` } }).then((reply) => reply.headers["x-cache"]);
    for (const zone of ["Europe/Paris", "Asia/Tokyo", "America/Lima"]) expect(await asked(zone)).toBe("miss");
    expect(cache.size.entries).toBe(3);
    // A fourth zone is rendered for the request and not kept, however often: until it is asked for more often
    // than the least asked-for kept variant.
    expect(await asked("Africa/Lagos")).toBe("miss");
    expect(cache.size.entries).toBe(3);
    for (const zone of ["Europe/Paris", "Asia/Tokyo"]) expect(await asked(zone)).toBe("hit");
    expect(await asked("Africa/Lagos")).toBe("miss");
    expect(cache.size.entries).toBe(3);
    expect(await asked("Africa/Lagos")).toBe("hit");
    // Lima, asked for once, gave way; the others stay.
    expect(await asked("America/Lima")).toBe("miss");
    for (const zone of ["Europe/Paris", "Asia/Tokyo"]) expect(await asked(zone)).toBe("hit");
    // Other URLs have their own bound.
    expect((await request("/toc")).headers["x-cache"]).toBe("miss");
    expect(cache.size.entries).toBe(4);
  });

  it("keys a page that said it shows no time without the time zone, and renders it without the tz cookie", async () => {
    const cookies: (string | undefined)[] = [];
    render = async (req, res, page) => {
      cookies.push(req.headers.cookie);
      const entry = await cache.store(
        page as PendingPage,
        Buffer.from(htmlFor(req.url ?? "/")),
        undefined,
        undefined,
        req.url?.startsWith("/chapter/") ?? false,
      );
      cache.send(req, res, "render-id", entry, "miss");
    };
    const zones = ["Europe/Paris", "Asia/Tokyo", "America/Lima", "Africa/Lagos"];
    const ask = (path: string, zone: string) =>
      request(path, { headers: { cookie: `lang=fr; tz=${zone}; theme=dark` } }).then(
        (reply) => reply.headers["x-cache"],
      );
    // The first render tells; from then on every zone is the one page, rendered with the other cookies only.
    expect(await ask("/chapter/1", "Europe/Paris")).toBe("miss");
    expect(await ask("/chapter/1", "Asia/Tokyo")).toBe("miss");
    for (const zone of zones) expect(await ask("/chapter/1", zone)).toBe("hit");
    expect(cookies).toEqual(["lang=fr; tz=Europe/Paris; theme=dark", "lang=fr; theme=dark"]);
    // Rendered first in UTC (no tz cookie), a timeless page is kept as the page of every zone: no second render.
    expect(await ask("/chapter/3", "UTC")).toBe("miss");
    expect(await ask("/chapter/3", "Asia/Tokyo")).toBe("hit");
    expect(cookies).toHaveLength(3);
    // A page that shows times is kept per zone.
    for (const zone of zones) expect(await ask("/toc", zone)).toBe("miss");
    for (const zone of zones) expect(await ask("/toc", zone)).toBe("hit");
  });

  it("learns that a page shows no time per viewer group (members read a chapter visitors wait for)", async () => {
    render = async (req, res, page) => {
      const waiting = !req.headers.cookie?.includes("group=members");
      const entry = await cache.store(
        page as PendingPage,
        Buffer.from(htmlFor(req.url ?? "/")),
        undefined,
        {},
        !waiting,
      );
      cache.send(req, res, "render-id", entry, "miss");
    };
    const member = (zone: string) =>
      request("/chapter/12", { headers: { cookie: `session=s; group=members; tz=${zone}` } });
    const visitor = (zone: string) => request("/chapter/12", { headers: { cookie: `tz=${zone}` } });
    await member("Asia/Tokyo");
    await visitor("Asia/Tokyo");
    await member("Europe/Paris");
    // Members: one page in every zone; visitors: one per zone, and neither moves the other's keys.
    expect((await member("America/Lima")).headers["x-cache"]).toBe("hit");
    expect((await visitor("Asia/Tokyo")).headers["x-cache"]).toBe("hit");
    expect((await visitor("Europe/Paris")).headers["x-cache"]).toBe("miss");
    expect((await member("Africa/Lagos")).headers["x-cache"]).toBe("hit");
    expect((await visitor("Europe/Paris")).headers["x-cache"]).toBe("hit");
  });

  it("gives a request back its cookie and its zone when a page kept as timeless shows a time again", async () => {
    render = async (req, res, page) => {
      const entry = await cache.store(
        page as PendingPage,
        Buffer.from(htmlFor(req.url ?? "/")),
        undefined,
        {},
        true,
      );
      cache.send(req, res, "render-id", entry, "miss");
    };
    await request("/chapter/2", { headers: { cookie: "tz=Asia/Tokyo" } });
    let seen: string | undefined;
    render = (req, res, page) => {
      expect(page?.timeless).toBe(true);
      expect(req.headers.cookie).toBe("");
      cache.showsTime(req, page as PendingPage);
      seen = req.headers.cookie;
      expect(pendingPage(req)).toBeUndefined();
      res.end("rendered in the reader's zone");
    };
    await request("/chapter/2", { headers: { cookie: "tz=Asia/Tokyo" } });
    expect(seen).toBe("tz=Asia/Tokyo");
    // The path is keyed by zone again: a render in another zone is kept apart.
    render = storingRender;
    expect((await request("/chapter/2", { headers: { cookie: "tz=Europe/Paris" } })).headers["x-cache"]).toBe(
      "miss",
    );
    expect(nexts.at(-1)?.pending?.timeless).toBe(false);
  });
});

describe("stale-if-error", () => {
  const failing: Render = (_req, res) => {
    res.writeHead(503, { "Content-Type": "text/plain", "Retry-After": "5" });
    res.end("database unavailable");
  };
  /** What server/react-router.ts does with a 5xx render: the kept page of the same key, if any. */
  const failingWithStale: Render = (req, res, page) => {
    if (!page || !cache.serveStale(req, res, "render-id", page)) failing(req, res, page);
  };

  it("serves the kept page, marked stale, while the revision is unknown (the database fails)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2026-03-03T12:00:00Z");
    vi.setSystemTime(start);
    const fresh = await request("/toc");
    expect(fresh.headers["x-cache"]).toBe("miss");
    expect((await request("/toc")).headers["x-cache"]).toBe("hit");
    revision = undefined;
    render = failing;
    // Past its age and its revision gone: still the page, not the error, and no render tried.
    vi.setSystemTime(start + 3_600_000);
    const stale = await request("/toc");
    expect(stale.status).toBe(200);
    expect(stale.headers["x-cache"]).toBe("stale");
    expect(stale.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(decoded(stale)).toBe(htmlFor("/toc"));
    expect(nexts).toHaveLength(1);
    // A page nobody kept, and another group's key, get the error, never a kept page of someone else.
    expect((await request("/about")).status).toBe(503);
    expect(
      (await request("/toc", { headers: { cookie: "session=a; group=reader 20 serif 2" } })).status,
    ).toBe(503);
    // Not forever: past staleMs after its render the error shows.
    vi.setSystemTime(start + 24 * 3_600_000);
    expect((await request("/toc")).status).toBe(503);
  });

  it("serves the kept page of an older revision when its render answers 503, to the waiters too", async () => {
    await request("/chapter/1");
    revision = 2;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    render = async (req, res, page) => {
      await gate;
      failingWithStale(req, res, page);
    };
    const replies = Promise.all([request("/chapter/1"), request("/chapter/1"), request("/chapter/1")]);
    await arrived(4);
    open();
    for (const reply of await replies) {
      expect(reply.status).toBe(200);
      expect(reply.headers["x-cache"]).toBe("stale");
      expect(decoded(reply)).toBe(htmlFor("/chapter/1"));
    }
    expect(nexts).toHaveLength(2);
    // The database back, the page is rendered again and fresh.
    render = storingRender;
    const fresh = await request("/chapter/1");
    expect(fresh.headers["x-cache"]).toBe("miss");
    expect(nexts).toHaveLength(3);
  });
});

describe("concurrent misses", () => {
  it("renders once: the others wait for the stored page", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    render = async (req, res, page) => {
      await gate;
      await storingRender(req, res, page);
    };
    const replies = Promise.all([
      request("/chapter/3"),
      request("/chapter/3", { headers: { "accept-encoding": "br" } }),
      request("/chapter/3", { headers: { "accept-encoding": "gzip" } }),
      request("/chapter/3", { method: "HEAD" }),
    ]);
    await arrived(4);
    expect(nexts).toHaveLength(1);
    open();
    const [plain, br, gz, head] = await replies;
    expect(nexts).toHaveLength(1);
    for (const reply of [plain, br, gz]) {
      expect(reply.status).toBe(200);
      expect(decoded(reply)).toBe(htmlFor("/chapter/3"));
    }
    expect(br?.headers["content-encoding"]).toBe("br");
    expect(gz?.headers["content-encoding"]).toBe("gzip");
    expect(head?.status).toBe(200);
    expect(head?.body.length).toBe(0);
  });

  it("does not make a request that came after a chapter release wait for a render started before it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2026-03-03T17:59:59Z");
    vi.setSystemTime(start);
    release = start + 1000;
    const gates: (() => void)[] = [];
    render = async (req, res, page) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      await storingRender(req, res, page);
    };
    const before = request("/chapter/9");
    await arrived(1);
    vi.setSystemTime(release);
    const after = request("/chapter/9");
    const afterToo = request("/chapter/9", { headers: { "accept-encoding": "br" } });
    await arrived(3);
    await waitFor(() => (nexts.length >= 2 ? true : undefined), { interval: 5, what: "the second render" });
    // One render before the release and one after it, which the third request waits for.
    expect(nexts.map((call) => call.pending?.startedAt)).toEqual([start, release]);
    for (const open of gates) open();
    expect((await before).status).toBe(200);
    expect((await after).status).toBe(200);
    expect((await afterToo).status).toBe(200);
    expect(nexts).toHaveLength(2);
    // The page rendered after the release is the one kept, whichever finished last.
    await request("/chapter/9");
    expect(nexts).toHaveLength(2);
  });

  it("sends the waiters to next when the first render keeps nothing", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    render = async (req, res, page) => {
      if (page) {
        await gate;
        page.settle(undefined);
      }
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`fresh ${req.url}`);
    };
    const replies = Promise.all([request("/account"), request("/account"), request("/account")]);
    await arrived(3);
    expect(nexts).toHaveLength(1);
    open();
    for (const reply of await replies) expect(reply.body.toString()).toBe("fresh /account");
    expect(nexts).toHaveLength(3);
    expect(nexts.filter((call) => call.pending)).toHaveLength(1);
    expect(cache.size.entries).toBe(0);
  });

  it("sends the waiters to next when the first request's connection closes before its page is kept", async () => {
    let firstRes: ServerResponse | undefined;
    render = (req, res, page) => {
      if (page) {
        firstRes = res;
        return;
      }
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`fresh ${req.url}`);
    };
    const first = request("/gallery").catch(() => undefined);
    await arrived(1);
    const second = request("/gallery");
    await arrived(2);
    expect(nexts).toHaveLength(1);
    firstRes?.destroy();
    expect((await second).body.toString()).toBe("fresh /gallery");
    await first;
    expect(nexts).toHaveLength(2);
  });
});

describe("route data", () => {
  it("keeps visitors' route data apart from the page, per _routes filter, with its type and React Router's mark", async () => {
    render = async (req, res, page) => {
      const body = Buffer.from(`[{"data":"${req.url}"}]`);
      if (!page) throw new Error("route data should be marked for keeping");
      cache.send(
        req,
        res,
        "request-id",
        await cache.store(page, body, "text/x-script", { "X-Remix-Response": "yes" }),
      );
    };
    const urls = [
      "/chapter/2.data",
      "/chapter/2.data?_routes=routes%2Fchapter",
      "/chapter/2.data?_routes=root",
    ];
    for (const url of urls) await request(url);
    for (const url of urls) {
      const again = await request(url);
      expect(again.body.toString()).toBe(`[{"data":"${url}"}]`);
      expect(again.headers["content-type"]).toBe("text/x-script");
      expect(again.headers["x-remix-response"]).toBe("yes");
    }
    expect(nexts).toHaveLength(3);
    // A signed-in reader's route data is never kept (the resolver gives no group for it here).
    render = storingRender;
    await request("/chapter/2.data", { headers: { cookie: "session=abc" } });
    expect(nexts.at(-1)?.pending).toBeUndefined();
  });
});

describe("what is keyed", () => {
  it.each([
    ["a query string on a page never kept", "GET", "/login?redirectTo=%2Fchapter%2F1"],
    ["route data never kept, with a query other than _routes", "GET", "/chapter/1.data?font=large"],
    ["route data filtered to no route of its page", "GET", "/chapter/1.data?_routes=routes%2Ftoc"],
    ["an asset", "GET", "/assets/entry-abc123.js"],
    ["a media file", "GET", "/media/art/chapter-1"],
    ["a file", "GET", "/favicon.svg"],
    ["a POST", "POST", "/chapter/1"],
    ["a PUT", "PUT", "/chapter/1"],
  ])("never keeps or serves %s", async (_what, method, path) => {
    await request("/chapter/1");
    render = (_req, res, page) => {
      expect(page).toBeUndefined();
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("fresh");
    };
    for (let i = 0; i < 2; i++) {
      const reply = await request(path, { method });
      expect(reply.body.toString()).toBe("fresh");
    }
    expect(nexts).toHaveLength(3);
    expect(nexts.slice(1).every((call) => call.pending === undefined)).toBe(true);
    expect(cache.size.entries).toBe(1);
  });

  it("keeps a page apart for each language, theme, time zone and viewer group", async () => {
    const variants: Record<string, string>[] = [
      {},
      { cookie: "lang=es" },
      { "accept-language": "ja" },
      { cookie: "theme=dark" },
      { cookie: "theme=light" },
      { cookie: "tz=Europe%2FParis" },
      { cookie: "session=a; group=reader 20 serif 2" },
      { cookie: "session=b; group=reader 16 serif 1.75" },
      { cookie: "session=c; group=reader 16 serif 1.75; theme=dark" },
    ];
    for (const headers of variants) await request("/chapter/1", { headers });
    expect(nexts).toHaveLength(variants.length);
    expect(new Set(nexts.map((call) => call.pending?.key)).size).toBe(variants.length);
    expect(cache.size.entries).toBe(variants.length);
    // The same preferences reached another way share an entry; things outside the key do not split it.
    const same: Record<string, string>[] = [
      { cookie: "lang=es; theme=" },
      { "accept-language": "es-ES,es;q=0.9" },
      { cookie: "lang=ja", "accept-language": "fr" },
      { cookie: "tz=Europe%2FParis; other=1" },
      { cookie: "tz=Not%2FA_Zone" },
      { cookie: "tz=europe%2Fparis" },
      { cookie: "tz=EUROPE%2FPARIS; lang=en" },
      { cookie: "session=d; group=reader 20 serif 2" },
      { "user-agent": "another browser" },
    ];
    for (const headers of same) await request("/chapter/1", { headers });
    expect(nexts).toHaveLength(variants.length);
  });

  it("renders per request (unkept) when the viewer resolver has no group", async () => {
    for (let i = 0; i < 2; i++) {
      const reply = await request("/account", { headers: { cookie: "session=a" } });
      expect(reply.body.toString()).toBe("<p>per request /account</p>");
    }
    expect(nexts).toHaveLength(2);
    expect(nexts.every((call) => call.pending === undefined)).toBe(true);
    expect(cache.size.entries).toBe(0);
  });

  it("waits for an asynchronous viewer resolver, and renders per request when it fails", async () => {
    let fail = false;
    cache = makeCache({
      viewer: async (_pathname, cookies) => {
        // Answers in a later turn, as a database would.
        await new Promise((resolve) => setImmediate(resolve));
        if (fail) throw new Error("database gone");
        return cookies.get("group");
      },
    });
    const headers = { cookie: "group=reader 18 gothic 2" };
    await request("/chapter/2", { headers });
    await request("/chapter/2", { headers });
    expect(nexts).toHaveLength(1);
    expect(nexts[0]?.pending?.shared).toBe("private");
    fail = true;
    await request("/chapter/2", { headers });
    expect(nexts).toHaveLength(2);
    expect(nexts[1]?.pending).toBeUndefined();
  });
});

describe("headers of a kept page", () => {
  it("allows exactly the page's inline scripts by hash in its CSP, with no nonce", async () => {
    await request("/chapter/1");
    const reply = await request("/chapter/1", { headers: { "accept-encoding": "br" } });
    const csp = String(reply.headers["content-security-policy"] ?? "");
    expect(csp).not.toContain("nonce");
    const scriptSrc = /(?:^|; )script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    const listed = scriptSrc.split(" ").filter((source) => source.startsWith("'sha256-"));
    const expected = scriptHashes(decoded(reply));
    // Two plain inline scripts and a module one; the one with src needs no hash.
    expect(expected).toHaveLength(3);
    expect(new Set(listed)).toEqual(new Set(expected));
    expect(scriptSrc.startsWith("'self' ")).toBe(true);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
    expect(reply.headers["x-frame-options"]).toBe("DENY");
  });

  it("sends no CSP outside production (Vite's scripts)", async () => {
    cache = makeCache({ production: false });
    await request("/toc");
    expect((await request("/toc")).headers["content-security-policy"]).toBeUndefined();
  });

  it("lets any cache keep a visitors' page if it revalidates, and no shared cache keep a reader group's", async () => {
    await request("/chapter/1");
    const visitor = await request("/chapter/1");
    expect(visitor.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    const headers = { cookie: "session=a; group=reader 20 serif 2" };
    await request("/chapter/1", { headers });
    const reader = await request("/chapter/1", { headers });
    expect(nexts).toHaveLength(2);
    expect(reader.headers["cache-control"]).toBe("private, no-cache");
    expect(reader.headers.vary).toContain("Cookie");
    const notModified = await request("/chapter/1", {
      headers: { ...headers, "if-none-match": reader.headers.etag ?? "" },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers["cache-control"]).toBe("private, no-cache");
    expect(reader.headers["set-cookie"]).toBeUndefined();
    expect(visitor.headers["set-cookie"]).toBeUndefined();
  });
});

describe("key flooding", () => {
  it("renders each real page once under 1,000 invented variants, and keeps the real pages", async () => {
    let renders = 0;
    render = async (req, res, page) => {
      renders++;
      await storingRender(req, res, page);
    };
    const real: [string, Record<string, string>][] = [
      ["/chapter/1", {}],
      ["/chapter/1", { cookie: "tz=Europe%2FParis" }],
      ["/toc", { cookie: "lang=es" }],
      ["/chapter/2.data?_routes=routes%2Fchapter", {}],
    ];
    const etags = new Map<string, string | undefined>();
    for (const [path, headers] of real) {
      const reply = await request(path, { headers });
      etags.set(`${path} ${headers.cookie}`, reply.headers.etag);
    }
    expect(renders).toBe(real.length);

    const flipCase = (text: string, i: number) =>
      [...text].map((char, at) => ((i >> (at % 12)) & 1 ? char.toUpperCase() : char.toLowerCase())).join("");
    for (let i = 0; i < 1000; i++) {
      const junk = crypto.randomBytes(6).toString("hex");
      const variants: [string, Record<string, string>][] = [
        ["/chapter/1", { cookie: `tz=${encodeURIComponent(flipCase("europe/paris", i))}` }],
        [`/chapter/1?${junk}=${i}`, {}],
        ["/chapter/1", { "accept-language": `${junk.slice(0, 2)}-${junk.slice(2, 4)},x;q=0.${i % 10}` }],
        ["/toc", { cookie: `lang=es; ${junk}=${i}; theme=${junk}` }],
        [`/chapter/2.data?_routes=root,routes%2Fchapter,routes%2Ftoc,${junk}&utm=${i}`, {}],
      ];
      const [path, headers] = variants[i % variants.length] as [string, Record<string, string>];
      const reply = await request(path, { headers });
      expect(reply.status).toBe(200);
    }
    // Invented spellings are the real pages: the root's data is one more real variant (React Router loads it
    // when asked), nothing else rendered.
    expect(renders).toBe(real.length + 1);
    expect(cache.size.entries).toBe(real.length + 1);
    for (const [path, headers] of real) {
      const reply = await request(path, { headers });
      expect(reply.headers.etag).toBe(etags.get(`${path} ${headers.cookie}`));
    }
    expect(renders).toBe(real.length + 1);
  });

  it("renders a variant as its canonical page, so the key and the page agree", async () => {
    await request("/chapter/1");
    revision = 2;
    await request("/chapter/1?utm_source=feed&utm_source=x");
    expect(nexts.at(-1)?.url).toBe("/chapter/1");
    expect(nexts.at(-1)?.pending?.key.split("\n")[0]).toBe("/chapter/1");
    // Before any render kept /shop, nothing says it is a shareable page (it could be /login?redirectTo=):
    // the request is rendered as it came, and kept by nobody.
    await request("/shop?category=books&x=1");
    expect(nexts.at(-1)).toMatchObject({ url: "/shop?category=books&x=1", pending: undefined });
    await request("/shop");
    // Then parameters the page reads stay, once, in one spelling; values it ignores go, and so do the others.
    await request("/shop?x=1&category=books&category=prints");
    expect(nexts.at(-1)?.url).toBe("/shop?category=books");
    await request("/shop?category=nonsense");
    await request("/shop?category=books");
    expect(nexts.map((call) => call.url)).toEqual([
      "/chapter/1",
      "/chapter/1",
      "/shop?category=books&x=1",
      "/shop",
      "/shop?category=books",
    ]);
  });
  it("renders a reader's own page (no viewer group) with every parameter it was asked with", async () => {
    await request("/chapter/4");
    // A locked chapter is the reader's own page: its loader reads ?payment= to show the purchase's result.
    await request("/chapter/4?payment=12", { headers: { cookie: "session=s" } });
    expect(nexts.at(-1)).toMatchObject({ url: "/chapter/4?payment=12", pending: undefined });
  });
});

describe("compression", () => {
  it("sends a miss compressed fast, then the best brotli once the background upgrade is done", async () => {
    const miss = await request("/chapter/1", { headers: { "accept-encoding": "br" } });
    expect(miss.headers.etag).toMatch(/-br5"$/);
    await cache.idle();
    const upgraded = await request("/chapter/1", { headers: { "accept-encoding": "br" } });
    expect(upgraded.headers.etag).toMatch(/-br11"$/);
    expect(decoded(upgraded)).toBe(decoded(miss));
    expect(upgraded.body.length).toBeLessThanOrEqual(miss.body.length);
    // The fast copy's tag names other bytes now: the browser gets the better copy once, then 304s.
    const revalidated = await request("/chapter/1", {
      headers: { "accept-encoding": "br", "if-none-match": String(miss.headers.etag) },
    });
    expect(revalidated.status).toBe(200);
    const notModified = await request("/chapter/1", {
      headers: { "accept-encoding": "br", "if-none-match": String(upgraded.headers.etag) },
    });
    expect(notModified.status).toBe(304);
    expect(nexts).toHaveLength(1);
  });

  it("keeps one reader's own page at the fast brotli: no background upgrade for it (ADR 71)", async () => {
    cache = makeCache({ oneReader: (group) => group.startsWith("own ") });
    const own = { "accept-encoding": "br", cookie: "session=s; group=own 7" };
    const miss = await request("/account", { headers: own });
    expect(miss.headers.etag).toMatch(/-br5"$/);
    await cache.idle();
    const kept = await request("/account", { headers: own });
    expect(kept.headers["x-cache"]).toBe("hit");
    expect(kept.headers.etag).toBe(miss.headers.etag);
    // A group's page is still upgraded.
    const group = { "accept-encoding": "br", cookie: "session=s; group=reader" };
    await request("/chapter/1", { headers: group });
    await cache.idle();
    expect((await request("/chapter/1", { headers: group })).headers.etag).toMatch(/-br11"$/);
  });

  it.each([
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0.5, br;q=0.9", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["*;q=0", undefined],
    ["identity;q=0", undefined],
    ["br;q=0, gzip;q=0, *", undefined],
    ["deflate", undefined],
    ["", undefined],
  ])("answers Accept-Encoding %j with %s, kept page and its size agreeing", async (header, expected) => {
    await request("/toc");
    const reply = await request("/toc", { headers: header ? { "accept-encoding": header } : {} });
    expect(reply.headers["content-encoding"]).toBe(expected);
    expect(decoded(reply)).toBe(htmlFor("/toc"));
    expect(Number(reply.headers["content-length"])).toBe(reply.body.length);
  });
});
