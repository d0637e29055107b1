import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresDatabase } from "../support/postgres";
import { freePort, type RunningServer, spawnServer, startServer, waitUntilReady } from "../support/server";

/**
 * The production server as an operator runs it: `node server.mjs` over the build (npm test builds first).
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-server-"));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the production server on a fresh data directory", () => {
  // How fast it starts is a figure for a benchmark, not a pass/fail on a shared machine: here it must start.
  it("answers its first page once started", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Crimson Covenant");
  });

  it("reports the database state on /healthz", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(await response.json()).toEqual({ status: "ok", database: "pglite" });
  });

  it.each([
    "/",
    "/about",
    "/chapters",
    "/toc",
    "/wiki",
    "/wiki/characters",
    "/wiki/world/new-lumen",
    "/gallery",
    "/shop",
    "/shop/product/2",
    "/fundraiser",
    "/terms",
    "/privacy",
  ])("serves %s with 200", async (route) => {
    expect((await fetch(`${server.url}${route}`)).status).toBe(200);
  });

  it.each(["/nowhere", "/shop/product/9999", "/wiki/spells", "/chapter/999/x"])(
    "answers %s with 404",
    async (route) => {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("404");
    },
  );

  it("sends a chapter's text once in the page, and in the route data for client navigations", async () => {
    const sentence = "by five the skylights of the";
    const page = await (await fetch(`${server.url}/chapter/1`)).text();
    // Once in the body; the head's description and og:description quote its opening only (ADR 46).
    const head = page.slice(0, page.indexOf("</head>"));
    expect(page.slice(head.length).split(sentence)).toHaveLength(2);
    expect(head.split(sentence)).toHaveLength(3);
    expect(head.length).toBeLessThan(4096);
    const data = await (await fetch(`${server.url}/chapter/1.data`)).text();
    expect(data).toContain(sentence);
  });

  it("sets the security headers with a fresh CSP nonce per response rendered per request", async () => {
    // A query string keeps the page out of the page cache (kept pages list script hashes instead:
    // tests/server/page-cache.test.ts).
    const first = await fetch(`${server.url}/login?redirectTo=%2Ftoc`);
    const second = await fetch(`${server.url}/login?redirectTo=%2Ftoc`);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[\w+/=]+'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(second.headers.get("content-security-policy")).not.toBe(csp);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    const html = await first.text();
    // Every inline script the browser runs carries it; the site's own files and data blocks need none.
    const inline = (html.match(/<script\b[^>]*>/g) ?? []).filter(
      (tag) => !/\bsrc=|type="application\/json"/.test(tag),
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const script of inline) expect(script).toContain(`nonce="${nonce}"`);
  });

  it("answers a page rendered per request whole, in one piece of a stated length (ADR 99)", async () => {
    // Streamed, the page would have no length and could carry parts sent after the shell.
    const plain = await fetch(`${server.url}/login?redirectTo=%2Fshop`, {
      headers: { "accept-encoding": "identity" },
    });
    const bytes = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-length")).toBe(String(bytes.length));
    expect(bytes.toString()).toMatch(/<\/html>$/);
    expect(bytes.toString()).not.toMatch(/<template id="B:|\$RC\(/);
    const compressed = await fetch(`${server.url}/login?redirectTo=%2Fshop`, {
      headers: { "accept-encoding": "br" },
    });
    expect(compressed.headers.get("content-encoding")).toBe("br");
    expect(await compressed.text()).toMatch(/<\/html>$/);
  });

  it("compresses responses and serves hashed assets as immutable", async () => {
    const page = await fetch(`${server.url}/toc`, { headers: { "accept-encoding": "gzip" } });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    const asset = /\/assets\/[\w.-]+\.js/.exec(await page.text())?.[0];
    expect(asset).toBeDefined();
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("immutable");
  });

  it("refuses a cross-origin POST and accepts a same-origin one", async () => {
    const body = new URLSearchParams({ theme: "dark", redirectTo: "/" });
    const cross = await fetch(`${server.url}/preferences`, {
      method: "POST",
      body,
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      redirect: "manual",
    });
    expect(cross.status).toBe(403);
    const same = await fetch(`${server.url}/preferences`, {
      method: "POST",
      body,
      headers: { origin: server.url, "sec-fetch-site": "same-origin" },
      redirect: "manual",
    });
    expect(same.status).toBe(302);
    expect(same.headers.get("set-cookie")).toMatch(/^theme=dark; Path=\/; Max-Age=31536000; SameSite=Lax/);
    expect(same.headers.get("location")).toBe("/");
    // The site's own forms name no page: the choice goes back to the page that sent it, a language's choice at
    // that language's URL of it (ADR 87).
    const back = await fetch(`${server.url}/preferences`, {
      method: "POST",
      body: new URLSearchParams({ lang: "fr" }),
      headers: { "sec-fetch-site": "same-origin", referer: `${server.url}/chapter/2?from=toc` },
      redirect: "manual",
    });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/fr/chapter/2?from=toc");
  });

  it("renders in the language of the cookie, else of Accept-Language, and sets <html lang>", async () => {
    const spanish = await (
      await fetch(`${server.url}/toc`, { headers: { "accept-language": "es-ES,es;q=0.9" } })
    ).text();
    expect(spanish).toContain('<html lang="es"');
    const japanese = await (
      await fetch(`${server.url}/toc`, { headers: { cookie: "lang=ja", "accept-language": "es" } })
    ).text();
    expect(japanese).toContain('<html lang="ja"');
    const dark = await (await fetch(`${server.url}/`, { headers: { cookie: "theme=dark" } })).text();
    expect(dark).toMatch(/<html lang="en" class="dark"/);
  });

  it("refuses a second server on the same data directory at once, with a clear message", async () => {
    const second = spawnServer({ PORT: String(await freePort()), DATA_DIR: dataDir });
    const code = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toContain(`The data directory ${dataDir} is in use by another process`);
  });

  it("stops a start-up with a bad setting, naming the variable", async () => {
    const bad = spawnServer({ PORT: "eighty", DATA_DIR: dataDir });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain("PORT:");
  });
});

describe("stopping and restarting", () => {
  it("exits cleanly on SIGTERM, then starts again on the same data (no re-seed)", async () => {
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);

    // Change the data while the server is down, through the content tool on the same directory.
    const changed = fs.mkdtempSync(path.join(os.tmpdir(), "cc-content-"));
    fs.mkdirSync(path.join(changed, "volumes"));
    fs.writeFileSync(
      path.join(changed, "volumes/1.md"),
      "---\nnumber: 1\ntitle: Renamed Volume\n---\n\nSummary.\n",
    );
    execFileSync(process.execPath, ["--import", "tsx", "scripts/content.ts", "import", changed], {
      env: { ...process.env, DATA_DIR: dataDir },
    });
    fs.rmSync(changed, { recursive: true, force: true });

    server = await startServer({ DATA_DIR: dataDir });
    const toc = await (await fetch(`${server.url}/toc`)).text();
    expect(toc).toContain("Renamed Volume");
    expect(toc).toContain("The Ancient Bloodline");
  });
});

describe.runIf(inject("postgres"))("on PostgreSQL", () => {
  it("serves the same pages from DATABASE_URL", async () => {
    const database = await createPostgresDatabase();
    const onPostgres = spawnServer({
      PORT: String(await freePort()),
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cc-pg-")),
      DATABASE_URL: database.url,
    });
    try {
      await waitUntilReady(onPostgres);
      expect(await (await fetch(`${onPostgres.url}/healthz`)).json()).toEqual({
        status: "ok",
        database: "postgres",
      });
      const home = await (await fetch(`${onPostgres.url}/`)).text();
      expect(home).toContain("$6,500");
      expect((await fetch(`${onPostgres.url}/shop/product/9999`)).status).toBe(404);
    } finally {
      expect(await onPostgres.stop()).toBe(0);
      await database.drop();
    }
  });
});
