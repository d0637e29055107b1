import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { parse } from "parse5";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client, registerAndSignIn } from "../support/http";
import { waitForMail } from "../support/mail";
import { waitFor } from "../support/poll";
import { createPostgresDatabase, postgresAdminUrl } from "../support/postgres";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";
import { newReader } from "../support/unique";

/**
 * The page cache (server/page-cache.ts) in the built production server: pages kept whole and shared by many
 * readers must never carry one reader's data to another, must revalidate and be invalidated by content
 * changes, and their CSP must allow exactly their inline scripts.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

/** A sentence of chapter 4 (paid: 1 coin) and one of chapter 1 (free), as the page renders them. */
const CHAPTER_4 = "a glass bulb on a brass stem";
const CHAPTER_1 = "by five the skylights of the";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-page-cache-"));
let server: RunningServer;
let origin = "";

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, APP_ORIGIN: origin });
  await waitUntilReady(server);
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; text: string };

/** Every response seen, to check what none of them may carry. */
const seen: { label: string; headers: Record<string, string | string[] | undefined> }[] = [];

/** A request with exactly these headers (Host included) and the raw bytes back, decoded into `text`. */
function raw(
  base: string,
  pathname: string,
  { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        const text = (
          encoding === "br"
            ? zlib.brotliDecompressSync(body)
            : encoding === "gzip"
              ? zlib.gunzipSync(body)
              : body
        ).toString("utf8");
        seen.push({ label: `${method} ${pathname}`, headers: res.headers });
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function csp(reply: { headers: http.IncomingHttpHeaders }): string {
  return String(reply.headers["content-security-policy"] ?? "");
}

/** The CSP hashes of a page's inline scripts, found by an HTML parser as a browser finds them. */
function inlineScriptHashes(html: string): string[] {
  type Node = {
    nodeName: string;
    attrs?: { name: string; value: string }[];
    childNodes?: Node[];
    value?: string;
  };
  const hashes: string[] = [];
  // A script the browser runs: no file, and no type other than JavaScript's (a data block is not run).
  const type = (node: Node) => node.attrs?.find((attr) => attr.name === "type")?.value ?? "";
  const runs = (node: Node) =>
    !node.attrs?.some((attr) => attr.name === "src") &&
    ["", "module", "text/javascript"].includes(type(node));
  const walk = (node: Node) => {
    if (node.nodeName === "script" && runs(node)) {
      const text = (node.childNodes ?? []).map((child) => child.value ?? "").join("");
      if (text) hashes.push(`'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`);
    }
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parse(html) as unknown as Node);
  return hashes;
}

/** The policy names every inline script of the page by its hash, and no nonce (nor does the page). */
function expectHashPolicyFor(reply: Reply) {
  const policy = csp(reply);
  expect(policy).not.toContain("'nonce-");
  expect(reply.text).not.toMatch(/<[^>]+ nonce="/);
  const scriptSrc = (/(?:^|; )script-src ([^;]*)/.exec(policy)?.[1] ?? "").split(" ");
  const hashes = inlineScriptHashes(reply.text);
  expect(hashes.length).toBeGreaterThan(0);
  for (const hash of hashes) expect(scriptSrc).toContain(hash);
}

function htmlTag(html: string): string {
  return /<html\b[^>]*>/.exec(html)?.[0] ?? "";
}

type Reader = { username: string; email: string; password: string; client: Client };

async function register(prefix: string): Promise<Reader> {
  const reader: Reader = { ...newReader(prefix, "first secret"), client: new Client(origin) };
  const response = await registerAndSignIn(reader.client, reader, (to) => waitForMail(dataDir, to));
  expect(response.status).toBe(302);
  expect(reader.client.cookies.has("session")).toBe(true);
  return reader;
}

/** Requests a page until its kept copy's brotli is the upgraded one (a miss is compressed fast). */
function upgraded(pathname: string, headers: Record<string, string>): Promise<Reply> {
  return waitFor(
    async () => {
      const reply = await raw(origin, pathname, { headers });
      return /-br11"$/.test(String(reply.headers.etag)) ? reply : undefined;
    },
    { interval: 20, what: `the upgraded brotli of ${pathname}` },
  );
}

async function saveSettings(reader: Reader, settings: Record<string, string>) {
  const response = await reader.client.post("/reader/settings", settings);
  expect(response.status).toBe(200);
}

// First in the file: on a fresh server the locked view's module is not loaded yet, so its part of the page
// suspends; a streamed render would send it after the shell, with React's script to move it in place.
describe("kept pages", () => {
  it("are rendered whole: no part streamed after the shell, no script to place it", async () => {
    for (const [pathname, shown] of [
      ["/chapter/4", "Chapter Locked"],
      ["/chapter/1", CHAPTER_1],
    ]) {
      const { status, text } = await raw(origin, pathname as string);
      expect(status).toBe(200);
      expect(text).toContain(shown);
      expect(text).not.toMatch(/<template id="B:|\$RC\(|<div hidden id="S:/);
    }
  });
});

describe("cached pages never show one reader's data to another", () => {
  /**
   * A unlocked chapter 4, saved progress and large dyslexic type; B, C and D did not unlock; C reads like A,
   * D like B.
   */
  let a: Reader;
  let b: Reader;
  let c: Reader;
  let d: Reader;
  let visitor: Client;
  const progress = {
    scrollPosition: 0.4321,
    paragraph: 4321,
    completionPercentage: 43,
    readingTime: 8675309,
    completed: false,
    bookmarks: [1234, 4321],
    lastReadAt: "2026-03-04T05:06:07.890Z",
  };
  // Not the reading time: the server keeps its own count of it (ADR 58), and a first write only starts it.
  const progressMarks = ["2026-03-04T05:06:07", "0.4321"];
  const A_SETTINGS = { fontSize: "20", fontFamily: "dyslexic", lineHeight: "2" };
  const B_SETTINGS = { fontSize: "14", fontFamily: "sans-serif", lineHeight: "1.5" };
  type Who = "visitor" | "A" | "B" | "C" | "D";
  const replies: { who: Who; path: string; reply: Reply }[] = [];

  const clientOf = (who: Who): Client =>
    ({ visitor, A: a.client, B: b.client, C: c.client, D: d.client })[who];

  async function as(who: Who, pathname: string): Promise<Reply> {
    const client = clientOf(who);
    const response = await client.get(pathname, { "accept-encoding": "gzip, deflate, br" });
    const body = Buffer.from(await response.arrayBuffer());
    const headers: http.IncomingHttpHeaders = {};
    for (const [name, value] of response.headers) headers[name] = value;
    const setCookie = response.headers.getSetCookie();
    if (setCookie.length) headers["set-cookie"] = setCookie;
    const reply = { status: response.status, headers, body, text: body.toString("utf8") };
    seen.push({ label: `${who} GET ${pathname}`, headers });
    replies.push({ who, path: pathname, reply });
    return reply;
  }

  const of = (who: Who, pathname: string) => replies.filter((r) => r.who === who && r.path === pathname);

  beforeAll(async () => {
    visitor = new Client(origin);
    a = await register("amaranth");
    b = await register("bramble");
    c = await register("cinder");
    d = await register("dusk");

    const unlock = await a.client.post("/chapter/4", { intent: "unlock" });
    expect(unlock.status).toBe(200);
    await saveSettings(a, A_SETTINGS);
    await saveSettings(b, B_SETTINGS);
    await saveSettings(c, A_SETTINGS);
    await saveSettings(d, B_SETTINGS);
    const saved = await fetch(`${origin}/reader/progress`, {
      method: "POST",
      body: JSON.stringify({ entries: [{ chapter: 1, progress }] }),
      headers: {
        cookie: a.client.cookieHeader,
        origin,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
      },
    });
    expect(saved.status).toBe(200);

    const pages = ["/chapter/1", "/chapter/4", "/chapter/4.data", "/chapter/1.data", "/", "/toc"];
    // Their own pages, kept per reader and session since ADR 53; /coins, kept per access and balance (ADR 101);
    // a coin lock, never kept.
    const personal = [
      "/account",
      "/account.data",
      "/achievements",
      "/settings",
      "/checkout",
      "/coins",
      "/chapter/5",
    ];
    const everyone: Who[] = ["visitor", "A", "B", "C", "D"];
    // A cold cache hit by everyone at once, then warm caches in several orders.
    await Promise.all(everyone.flatMap((who) => pages.map((page) => as(who, page))));
    for (const order of [
      ["A", "B", "visitor", "C", "D"],
      ["B", "visitor", "D", "C", "A"],
      ["visitor", "D", "C", "A", "B"],
      ["D", "C", "A", "B", "visitor"],
    ] as Who[][]) {
      for (const page of pages) for (const who of order) await as(who, page);
      for (const page of personal) for (const who of order) if (who !== "visitor") await as(who, page);
    }
  });

  it("gives chapter 4's text only to the reader who unlocked it, in the page and in its route data", () => {
    for (const path of ["/chapter/4", "/chapter/4.data"]) {
      expect(of("A", path)).toHaveLength(5);
      for (const { reply } of of("A", path)) {
        expect(reply.status).toBe(200);
        expect(reply.text).toContain(CHAPTER_4);
      }
      for (const who of ["B", "C", "visitor"] as const) {
        expect(of(who, path)).toHaveLength(5);
        for (const { reply } of of(who, path)) expect(reply.text).not.toContain(CHAPTER_4);
      }
    }
    // They see the lock instead; the free chapter is everybody's.
    for (const who of ["B", "C", "visitor"] as const)
      for (const { reply } of of(who, "/chapter/4")) expect(reply.text).toContain("Chapter Locked");
    for (const { reply } of replies.filter((r) => r.path === "/chapter/1"))
      expect(reply.text).toContain(CHAPTER_1);
  });

  it("marks chapter 4 unlocked in A's own table of contents only; the kept one is the same bytes for every visitor", () => {
    const unlockedMark = /data-status="unlocked"[^>]*>Unlocked</;
    for (const { reply } of of("A", "/toc")) expect(reply.text).toMatch(unlockedMark);
    for (const who of ["B", "C", "D", "visitor"] as const)
      for (const { reply } of of(who, "/toc")) expect(reply.text).not.toContain('data-status="unlocked"');
    const visitorPages = of("visitor", "/toc").map(({ reply }) => reply.body.toString("base64"));
    expect(visitorPages).toHaveLength(5);
    expect(new Set(visitorPages).size).toBe(1);
    expect(of("visitor", "/toc")[0]?.reply.text).toContain("1 coin");
  });

  it("shows no reader's name, e-mail, balance or progress to anybody else", () => {
    // Each reader's own pages do show them (so the checks below look for something real).
    expect(of("A", "/account")[0]?.reply.text).toContain(a.username);
    expect(of("A", "/account")[0]?.reply.text).toContain(a.email);
    expect(of("B", "/account")[0]?.reply.text).toContain(b.email);
    expect(of("A", "/chapter/5")[0]?.reply.text).toContain("Your balance: 2 coins");
    expect(of("B", "/chapter/5")[0]?.reply.text).toContain("Your balance: 3 coins");
    const readers = { A: a, B: b, C: c, D: d };
    for (const { who, path, reply } of replies) {
      for (const [name, reader] of Object.entries(readers)) {
        if (name === who) continue;
        expect(reply.text, `${who} ${path}`).not.toContain(reader.username);
        expect(reply.text, `${who} ${path}`).not.toContain(reader.email);
      }
      if (who !== "A") {
        for (const mark of progressMarks) expect(reply.text, `${who} ${path}`).not.toContain(mark);
        expect(reply.text, `${who} ${path}`).not.toContain("Your balance: 2 coin");
      }
    }
  });

  it("renders each reader's own settings on <html>, and nobody else's", () => {
    for (const path of ["/chapter/1", "/chapter/4", "/", "/toc", "/account"]) {
      for (const { reply } of of("A", path)) {
        expect(htmlTag(reply.text)).toContain('data-font-size="20"');
        expect(htmlTag(reply.text)).toContain('data-font-family="dyslexic"');
      }
      for (const { reply } of of("B", path)) {
        expect(htmlTag(reply.text)).toContain('data-font-size="14"');
        expect(htmlTag(reply.text)).not.toContain("dyslexic");
      }
      for (const { reply } of of("visitor", path)) {
        expect(htmlTag(reply.text)).not.toContain("data-font");
        expect(htmlTag(reply.text)).not.toContain("data-line-height");
      }
    }
  });

  it("shares a chapter page between readers who may read it with the same settings, and no further", () => {
    // One kept page has one ETag per encoding; its brotli one changes once, when the background job
    // recompresses the page at its best (server/page-cache.ts), so the stem is what names the page.
    const etag = (who: Who, path: string) =>
      new Set(of(who, path).map(({ reply }) => reply.headers.etag?.replace(/-br\d+"$/, '"')));
    // Served from one kept page: one ETag for all of A's and C's requests for chapter 1.
    expect(etag("A", "/chapter/1")).toEqual(etag("C", "/chapter/1"));
    expect(etag("A", "/chapter/1").size).toBe(1);
    expect([...etag("A", "/chapter/1")][0]).toMatch(/^"[\w-]+"$/);
    expect(etag("B", "/chapter/1").size).toBe(1);
    expect(etag("B", "/chapter/1")).not.toEqual(etag("A", "/chapter/1"));
    expect(etag("visitor", "/chapter/1")).not.toEqual(etag("A", "/chapter/1"));
    for (const { reply } of of("A", "/chapter/1")) expectHashPolicyFor(reply);
    // C reads like A but has not unlocked chapter 4: C's page is made per request (nonce) and locked.
    for (const { reply } of of("C", "/chapter/4")) {
      expect(reply.headers.etag).toBeUndefined();
      expect(csp(reply)).toMatch(/'nonce-[\w+/=]+'/);
    }
  });

  it("shares the table of contents between readers with the same access and settings, and no further (ADR 101)", () => {
    const etag = (who: Who) =>
      new Set(of(who, "/toc").map(({ reply }) => reply.headers.etag?.replace(/-br\d+"$/, '"')));
    // B and D: no unlock, the same settings: one kept page for both, served with no render.
    expect(etag("B").size).toBe(1);
    expect([...etag("B")][0]).toMatch(/^"[\w-]+"$/);
    expect(etag("D")).toEqual(etag("B"));
    // C reads like A without A's unlock; B reads otherwise; a visitor's is the visitors'.
    expect(etag("A").size).toBe(1);
    expect(etag("C").size).toBe(1);
    expect(etag("C")).not.toEqual(etag("A"));
    expect(etag("C")).not.toEqual(etag("B"));
    expect(etag("visitor")).not.toEqual(etag("B"));
    for (const { reply } of of("B", "/toc")) expectHashPolicyFor(reply);
  });

  it("shares /coins between readers with the same access and balance, and no further (ADR 101)", () => {
    const etag = (who: Who) =>
      new Set(of(who, "/coins").map(({ reply }) => reply.headers.etag?.replace(/-br\d+"$/, '"')));
    const balance = (who: Who) =>
      new Set(
        of(who, "/coins").map(({ reply }) => /data-testid="coin-balance"[^>]*>(\d+)</.exec(reply.text)?.[1]),
      );
    // A spent a coin on chapter 4; B, C and D have their three.
    expect(balance("A")).toEqual(new Set(["2"]));
    for (const who of ["B", "C", "D"] as const) expect(balance(who)).toEqual(new Set(["3"]));
    expect(etag("B").size).toBe(1);
    expect([...etag("B")][0]).toMatch(/^"[\w-]+"$/);
    expect(etag("D")).toEqual(etag("B"));
    expect(etag("C")).not.toEqual(etag("A"));
    expect(etag("C")).not.toEqual(etag("B"));
  });

  it("lets shared caches keep visitors' pages (revalidating), never signed-in readers' ones", () => {
    for (const { path, reply } of of("visitor", "/chapter/1").concat(
      of("visitor", "/chapter/4"),
      of("visitor", "/"),
      of("visitor", "/toc"),
    )) {
      expect(reply.status, path).toBe(200);
      expect(reply.headers["cache-control"], path).toBe("public, max-age=0, must-revalidate");
    }
    for (const { path, reply } of replies.filter((r) => r.who === "visitor"))
      expect(reply.headers["set-cookie"], path).toBeUndefined();
    for (const { who, path, reply } of replies.filter((r) => r.who !== "visitor")) {
      expect(reply.headers["cache-control"], `${who} ${path}`).toMatch(/\bprivate\b/);
      expect(reply.headers["cache-control"], `${who} ${path}`).not.toMatch(/\bpublic\b/);
    }
  });

  it("keeps progress out of the page: only the reader's own progress request returns it", async () => {
    const mine = await a.client.get("/reader/progress?chapter=1");
    expect(mine.headers.get("cache-control")).toContain("private");
    expect(((await mine.json()) as { progress: unknown }).progress).toEqual({ ...progress, readingTime: 0 });
    const theirs = await b.client.get("/reader/progress?chapter=1");
    expect(((await theirs.json()) as { progress: unknown }).progress).toBeNull();
    expect((await visitor.get("/reader/progress?chapter=1")).status).toBe(401);
    // Every mark the table of contents shows, fetched by it (ADR 101).
    const marks = await a.client.get("/reader/progress");
    expect(marks.headers.get("cache-control")).toContain("private");
    expect(await marks.json()).toEqual({
      marks: { 1: { completed: false, percent: 43, lastReadAt: progress.lastReadAt } },
    });
    expect(await (await b.client.get("/reader/progress")).json()).toEqual({ marks: {} });
    expect((await visitor.get("/reader/progress")).status).toBe(401);
  });

  it("gives a signed-out session cookie the visitor's locked page, whatever was kept for it", async () => {
    const stale = a.client.cookieHeader;
    expect((await a.client.post("/logout", {})).status).toBe(302);
    for (let i = 0; i < 2; i++) {
      for (const pathname of ["/chapter/4", "/chapter/4.data", "/chapter/1"]) {
        const response = await fetch(`${origin}${pathname}`, {
          headers: { cookie: stale },
          redirect: "manual",
        });
        const text = await response.text();
        seen.push({ label: `stale GET ${pathname}`, headers: Object.fromEntries(response.headers) });
        expect(response.status, pathname).toBe(200);
        expect(text, pathname).not.toContain(CHAPTER_4);
        expect(text, pathname).not.toContain(a.username);
        if (!pathname.endsWith(".data")) expect(htmlTag(text)).not.toContain("data-font-size");
      }
    }
  });
});

describe("a reader's own pages (ADR 53)", () => {
  const own = ["/account", "/achievements", "/settings", "/checkout"];
  const hashesOnly = (reply: Reply) => csp(reply).includes("'sha256-") && !csp(reply).includes("nonce-");

  it("are kept for the reader's session, and each of its other sessions gets its own", async () => {
    const reader = await register("ownpages");
    const other = new Client(origin);
    const login = await other.post("/login", { email: reader.email, password: reader.password });
    expect(login.status).toBe(302);
    for (const pathname of own) {
      const headers = { cookie: reader.client.cookieHeader, "accept-encoding": "br" };
      await raw(origin, pathname, { headers });
      const kept = await raw(origin, pathname, { headers });
      expect(kept.status, pathname).toBe(200);
      expect(hashesOnly(kept), pathname).toBe(true);
      expect(kept.headers["cache-control"], pathname).toMatch(/private/);
    }
    // /settings marks the session it is shown to: each session has its own copy.
    const mine = await raw(origin, "/settings", { headers: { cookie: reader.client.cookieHeader } });
    const theirs = await raw(origin, "/settings", { headers: { cookie: other.cookieHeader } });
    expect(mine.headers.etag).not.toBe(theirs.headers.etag);
  });

  it("show a change the reader makes at their very next request", async () => {
    const reader = await register("ownchange");
    const headers = () => ({ cookie: reader.client.cookieHeader });
    for (const pathname of own) await raw(origin, pathname, { headers: headers() });
    // Reading settings, rendered on <html> of every page of theirs.
    await saveSettings(reader, { fontSize: "18", fontFamily: "sans-serif", lineHeight: "1.5" });
    for (const pathname of own)
      expect(htmlTag((await raw(origin, pathname, { headers: headers() })).text), pathname).toContain(
        'data-font-size="18"',
      );
    // A line put in the cart is on the checkout at once.
    const before = await raw(origin, "/checkout", { headers: headers() });
    expect(before.text).not.toContain("Bookmark Set");
    const added = await reader.client.post("/cart", {
      intent: "add",
      productId: "1",
      variantId: "",
      quantity: "1",
    });
    expect(added.status).toBeLessThan(400);
    const after = await raw(origin, "/checkout", { headers: headers() });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.text).toContain("Bookmark Set");
    // A time zone chosen is the one /settings names at once.
    const zone = /dated in Asia\/Tokyo/;
    expect((await raw(origin, "/settings", { headers: headers() })).text).not.toMatch(zone);
    const chosen = await reader.client.post("/settings", { intent: "timeZone", timeZone: "Asia/Tokyo" });
    expect(chosen.status).toBe(200);
    expect((await raw(origin, "/settings", { headers: headers() })).text).toMatch(zone);
  });

  it("are not kept once the session has ended", async () => {
    const reader = await register("ownended");
    const cookie = reader.client.cookieHeader;
    await raw(origin, "/account", { headers: { cookie } });
    expect((await raw(origin, "/account", { headers: { cookie } })).status).toBe(200);
    await reader.client.post("/logout", {});
    const after = await raw(origin, "/account", { headers: { cookie } });
    expect(after.status).toBe(302);
    expect(after.text).not.toContain(reader.email);
  });
});

describe("a visitor's cart (ADR 24)", () => {
  it("keeps the shop one shared page for visitors without a cart, and gives one with a cart their own page and bar", async () => {
    await raw(origin, "/shop/product/1");
    const shared = await raw(origin, "/shop/product/1");
    expect(shared.headers.etag).toBeDefined();
    expect(shared.text).not.toContain("cart-bar");
    for (const pathname of ["/shop/product/1", "/shop", "/shop/product/1.data"]) {
      const mine = await raw(origin, pathname, { headers: { cookie: "cart=1x2" } });
      expect(mine.status, pathname).toBe(200);
      expect(mine.headers.etag, pathname).toBeUndefined();
      if (!pathname.endsWith(".data")) expect(mine.text, pathname).toContain("2 items");
    }
    const after = await raw(origin, "/shop/product/1");
    expect(after.text).not.toContain("2 items");
    expect(after.headers.etag).toBe(shared.headers.etag);
  });
});

describe("a signed-in reader's cart and subscription (ADR 102)", () => {
  it("keeps the shop and the fundraiser one page for readers alike with the same cart, and gives a reader with another cart another page and bar", async () => {
    const ember = await register("ember");
    const fennel = await register("fennel");
    const br = { "accept-encoding": "br" };
    const etag = async (who: Reader, pathname: string) =>
      (await who.client.get(pathname, br)).headers.get("etag")?.replace(/-br\d+"$/, '"');
    const kept = new Map<string, string | undefined>();
    for (const pathname of ["/shop", "/shop/product/1", "/fundraiser"]) {
      await ember.client.get(pathname, br);
      kept.set(pathname, await etag(ember, pathname));
      expect(kept.get(pathname), pathname).toMatch(/^"[\w-]+"$/);
      expect(await etag(fennel, pathname), pathname).toBe(kept.get(pathname));
    }
    const added = await ember.client.post("/cart", {
      intent: "add",
      productId: "1",
      quantity: "2",
      redirectTo: "/shop/product/1",
    });
    expect(added.status).toBe(302);
    for (const pathname of ["/shop", "/shop/product/1"]) {
      const mine = await ember.client.get(pathname, br);
      expect(mine.status, pathname).toBe(200);
      expect(mine.headers.get("etag")?.replace(/-br\d+"$/, '"'), pathname).not.toBe(kept.get(pathname));
      expect(await mine.text(), pathname).toContain("2 items");
      const theirs = await fennel.client.get(pathname, br);
      expect(theirs.headers.get("etag")?.replace(/-br\d+"$/, '"'), pathname).toBe(kept.get(pathname));
      expect(await theirs.text(), pathname).not.toContain("2 items");
    }
    // The fundraiser shows no cart: still the page they share.
    expect(await etag(ember, "/fundraiser")).toBe(kept.get("/fundraiser"));
  });
});

describe("revalidation", () => {
  it("serves a kept page again with the same ETag per encoding, and 304 when the browser has it", async () => {
    const miss = await raw(origin, "/gallery", { headers: { "accept-encoding": "br" } });
    expect(miss.status).toBe(200);
    expect(miss.headers["content-encoding"]).toBe("br");
    // A miss is compressed fast; the kept page is recompressed at the best brotli in the background.
    expect(miss.headers.etag).toMatch(/-br5"$/);
    // Said as caches say it: rendered for this request, then kept.
    expect(miss.headers["x-cache"]).toBe("miss");
    const first = await upgraded("/gallery", { "accept-encoding": "br" });
    expect(first.text).toBe(miss.text);
    const second = await raw(origin, "/gallery", { headers: { "accept-encoding": "br" } });
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers["x-cache"]).toBe("hit");
    expect(second.text).toContain("Crimson Covenant");
    expectHashPolicyFor(second);

    const gz = await raw(origin, "/gallery", { headers: { "accept-encoding": "gzip" } });
    const plain = await raw(origin, "/gallery");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(gz.text).toBe(second.text);
    expect(plain.text).toBe(second.text);
    expect(new Set([second.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);

    const notModified = await raw(origin, "/gallery", {
      headers: { "accept-encoding": "br", "if-none-match": String(second.headers.etag) },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(second.headers.etag);
    const changed = await raw(origin, "/gallery", {
      headers: { "accept-encoding": "br", "if-none-match": '"not-this-one"' },
    });
    expect(changed.status).toBe(200);
  });

  it("keeps per-request pages on a fresh nonce (not the cache's hashes)", async () => {
    const first = await raw(origin, "/login");
    const second = await raw(origin, "/login");
    expect(csp(first)).toMatch(/'nonce-[\w+/=]+'/);
    expect(csp(second)).not.toBe(csp(first));
    expect(csp(first)).not.toContain("'sha256-");
  });

  it("answers HEAD first, then GET with the whole page (a HEAD render has no body to keep)", async () => {
    const head = await raw(origin, "/wiki", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const get = await raw(origin, "/wiki");
    expect(get.status).toBe(200);
    expect(get.text).toContain("Crimson Covenant");
    expect(get.text).toContain("</html>");
    expect(Number(get.headers["content-length"])).toBeGreaterThan(1000);
  });
});

describe("key flooding", () => {
  it("answers 1,000 invented spellings from the real pages' kept copies, and keeps those", async () => {
    const br = { "accept-encoding": "br" };
    const paris = { ...br, cookie: "tz=Europe%2FParis" };
    const spanish = { ...br, cookie: "lang=es" };
    const real = {
      chapter: await upgraded("/chapter/3", br),
      paris: await upgraded("/chapter/3", paris),
      toc: await upgraded("/toc", spanish),
      data: await upgraded("/chapter/3.data?_routes=routes%2Fchapter", br),
    };
    // A chapter the visitor may read shows no time: one page in every zone (ADR 62).
    expect(real.paris.headers.etag).toBe(real.chapter.headers.etag);
    const flip = (text: string, i: number) =>
      [...text].map((char, at) => ((i >> (at % 10)) & 1 ? char.toUpperCase() : char.toLowerCase())).join("");
    for (let i = 0; i < 1000; i++) {
      const junk = crypto.randomBytes(5).toString("hex");
      const [pathname, headers, kind] = [
        ["/chapter/3", { ...br, cookie: `tz=${encodeURIComponent(flip("europe/paris", i))}` }, "paris"],
        [`/chapter/3?${junk}=${i}&utm_source=x`, br, "chapter"],
        ["/chapter/3", { ...br, "accept-language": `${junk};q=0.9` }, "chapter"],
        ["/chapter/3", { ...br, cookie: `${junk}=${i}; theme=${junk}` }, "chapter"],
        ["/toc", { ...spanish, "accept-language": "ja", cookie: `lang=es; tz=${junk}` }, "toc"],
        [`/chapter/3.data?_routes=routes%2Fchapter,routes%2Fchapter,routes%2Ftoc&${junk}=1`, br, "data"],
      ][i % 6] as [string, Record<string, string>, keyof typeof real];
      const reply = await raw(origin, pathname, { headers });
      // A render would answer a miss, compressed fast (`-br5`): each one is the upgraded kept copy.
      expect(reply.status, pathname).toBe(200);
      expect(reply.headers.etag, `${pathname} ${JSON.stringify(headers)}`).toBe(real[kind].headers.etag);
    }
    expect((await raw(origin, "/chapter/3", { headers: br })).headers.etag).toBe(real.chapter.headers.etag);
    expect((await raw(origin, "/toc", { headers: spanish })).text).toBe(real.toc.text);
  }, 60_000);

  it("leaves the query a page reads, and pages that are not kept, as they came", async () => {
    const books = await raw(origin, "/shop?category=books");
    const all = await raw(origin, "/shop");
    expect(books.text).not.toBe(all.text);
    expect((await raw(origin, "/shop?utm=1&category=books")).text).toBe(books.text);
    // A parameter of a page with an id in its path (the inquiry form's notice) is read too.
    const form = await raw(origin, "/shop/product/6/inquire");
    const sent = await raw(origin, "/shop/product/6/inquire?sent=1&utm=1");
    expect(form.headers.etag).toBeDefined();
    expect(sent.text).not.toBe(form.text);
    expect((await raw(origin, "/shop/product/6/inquire?utm=2&sent=1")).headers.etag).toBe(sent.headers.etag);
    const login = await raw(origin, "/login?redirectTo=%2Ftoc");
    expect(login.status).toBe(200);
    expect(login.text).toContain("redirectTo=%2Ftoc");
    expect(login.headers.etag).toBeUndefined();
  });
});

describe("the Host header", () => {
  it("cannot change a kept page: the same bytes and ETag as with the right Host, no forged host inside", async () => {
    const forged = {
      host: "evil.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      "accept-encoding": "br",
    };
    // The forged request renders the page (first after start) and so is the one kept.
    const first = await raw(origin, "/wiki/characters", { headers: forged });
    expect(first.status).toBe(200);
    expect(first.text).not.toContain("evil.example");
    const right = await raw(origin, "/wiki/characters", { headers: { "accept-encoding": "br" } });
    expect(right.headers.etag).toBe(first.headers.etag);
    expect(right.text).toBe(first.text);
    // And the other way round: a forged Host is served the page made for the right one.
    const kept = await raw(origin, "/about", { headers: { "accept-encoding": "br" } });
    const again = await raw(origin, "/about", { headers: forged });
    expect(again.headers.etag).toBe(kept.headers.etag);
    expect(again.text).not.toContain("evil.example");
  });
});

describe("the shareable mark", () => {
  it("never reaches a client", async () => {
    for (const pathname of ["/", "/toc", "/chapter/2", "/chapter/2.data", "/shop", "/nowhere"]) {
      await raw(origin, pathname);
      await raw(origin, pathname, { method: "HEAD" });
    }
    expect(seen.length).toBeGreaterThan(100);
    for (const { label, headers } of seen) {
      const names = Object.keys(headers).map((name) => name.toLowerCase());
      expect(names, label).not.toContain("x-shareable-page");
    }
  });
});

describe.runIf(inject("postgres"))("content changes on PostgreSQL", () => {
  it("show on kept pages at the next revision poll after a change made outside the server", async () => {
    const database = await createPostgresDatabase();
    const onPostgres = spawnServer({
      PORT: String(await freePort()),
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cc-pg-page-cache-")),
      DATABASE_URL: database.url,
    });
    const sql = new pg.Client({ connectionString: database.url });
    try {
      await waitUntilReady(onPostgres, 60_000);
      await sql.connect();
      // Chapter 2's page does not show chapter 1's title: after the change it is rendered again, the same.
      await raw(onPostgres.url, "/chapter/2");
      const unchanged = await raw(onPostgres.url, "/chapter/2");
      const pages = ["/chapter/1", "/toc"];
      const before = new Map<string, string | undefined>();
      for (const pathname of pages) {
        await raw(onPostgres.url, pathname);
        const kept = await raw(onPostgres.url, pathname);
        expect(kept.text).toContain("The Tithe Ledger");
        expect(csp(kept)).toContain("'sha256-");
        before.set(pathname, kept.headers.etag);
      }
      const title = `The Ledger Rewritten ${crypto.randomBytes(3).toString("hex")}`;
      await sql.query("update chapters set title = $1 where number = 1", [title]);
      // Seen at the next revision poll; the wait's ceiling is for a hung test, not a figure under test.
      for (const pathname of pages) {
        const reply = await waitFor(
          async () => {
            const reply = await raw(onPostgres.url, pathname);
            return reply.text.includes(title) ? reply : undefined;
          },
          { interval: 100, what: `the new title on ${pathname}` },
        );
        expect(reply.headers.etag, pathname).not.toBe(before.get(pathname));
      }
      // Revalidated, it is a 304 with no CSP of its own: the browser keeps its copy's, which allows the
      // copy's scripts by their hashes (a CSP for the render's nonce would block them all).
      const revalidated = await raw(onPostgres.url, "/chapter/2", {
        headers: { "if-none-match": String(unchanged.headers.etag) },
      });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers["content-security-policy"]).toBeUndefined();
    } finally {
      await sql.end().catch(() => {});
      expect(await onPostgres.stop()).toBe(0);
      await database.drop();
    }
  }, 120_000);
});

describe.runIf(inject("postgres"))("stale-if-error on PostgreSQL", () => {
  it("keeps serving kept pages to visitors while the database is unreachable, and only those", async () => {
    const database = await createPostgresDatabase();
    const name = new URL(database.url).pathname.slice(1);
    const onPostgres = spawnServer({
      PORT: String(await freePort()),
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cc-pg-stale-")),
      DATABASE_URL: database.url,
    });
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    const kept = ["/chapter/1", "/toc", "/chapter/2.data"];
    try {
      await waitUntilReady(onPostgres, 60_000);
      await admin.connect();
      const warm = new Map<string, Reply>();
      for (const pathname of kept) {
        await raw(onPostgres.url, pathname);
        warm.set(pathname, await raw(onPostgres.url, pathname));
      }
      // The database refuses the app: no new connections, and its open ones cut.
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [name],
      );
      // Within a poll (a second) the server knows the revision no more.
      await waitFor(
        async () => ((await raw(onPostgres.url, "/toc")).headers["x-cache"] === "stale" ? true : undefined),
        { interval: 100, what: "a stale /toc" },
      );
      for (const pathname of kept) {
        const reply = await raw(onPostgres.url, pathname);
        expect(reply.status, pathname).toBe(200);
        expect(reply.headers["x-cache"], pathname).toBe("stale");
        expect(reply.text, pathname).toBe(warm.get(pathname)?.text);
      }
      expect((await raw(onPostgres.url, "/chapter/1")).text).toContain(CHAPTER_1);
      // A page never kept has no copy to fall back on: an error (503 once the app tells a lost database
      // apart), never a kept page of another key.
      const uncached = await raw(onPostgres.url, "/wiki");
      expect(uncached.status).toBeGreaterThanOrEqual(500);
      expect(uncached.headers["x-cache"]).toBeUndefined();
      expect(onPostgres.child.exitCode).toBeNull();
    } finally {
      await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
      await admin.end().catch(() => {});
      await onPostgres.stop();
      await database.drop();
    }
  }, 120_000);
});
