import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";

/**
 * The page cache (server/page-cache.ts, ADR 62) in the built production server under a flood of valid keys:
 * one chapter page asked for in every time zone, language and theme must not push out the pages readers come
 * back to, nor take the server past its memory budget.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

/** The memory budget of a server (docs/architecture.md), resident. */
const RSS_BUDGET_MB = 400;
const POPULAR = ["/", "/toc", "/shop"];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-page-cache-flood-"));
let server: RunningServer;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

beforeAll(async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, APP_ORIGIN: origin });
  // A first start builds the database from the template: slow on a busy machine.
  await waitUntilReady(server, 120_000);
}, 180_000);

afterAll(async () => {
  agent.destroy();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Reply = { status: number; cache: string | undefined; etag: string | undefined; body: string };

/** A GET with these cookies, the body read whole (plain: no Accept-Encoding). */
function get(pathname: string, cookie = ""): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.url}${pathname}`, { agent, headers: cookie ? { cookie } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          cache: res.headers["x-cache"] as string | undefined,
          etag: res.headers.etag,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** The server process's resident memory, in MB. */
function serverRssMb(): number {
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

describe("a flood of valid keys for one page", () => {
  it("leaves /, /toc and /shop kept and the server within its memory budget", async () => {
    for (let round = 0; round < 3; round++)
      for (const page of POPULAR) expect((await get(page)).status).toBe(200);
    for (const page of POPULAR) expect((await get(page)).cache, page).toBe("hit");
    const before = serverRssMb();

    // Every real time zone × the four languages × the three themes (none, light, dark), 16 at a time.
    const keys = Intl.supportedValuesOf("timeZone").flatMap((zone) =>
      ["en", "es", "fr", "ja"].flatMap((lang) =>
        ["", "; theme=light", "; theme=dark"].map(
          (theme) => `tz=${encodeURIComponent(zone)}; lang=${lang}${theme}`,
        ),
      ),
    );
    expect(keys.length).toBeGreaterThan(4800);
    let next = 0;
    let peak = before;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < keys.length) {
          const reply = await get("/chapter/1", keys[next++]);
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          if (next % 500 === 0) peak = Math.max(peak, serverRssMb());
        }
      }),
    );
    expect([...statuses]).toEqual([[200, keys.length]]);
    peak = Math.max(peak, serverRssMb());

    const after = serverRssMb();
    // The figures ADR 62 quotes.
    console.info(
      `page cache flood: ${keys.length} requests; RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB peak, ${after.toFixed(0)} MB after`,
    );
    for (const page of POPULAR) expect((await get(page)).cache, page).toBe("hit");
    expect(peak).toBeLessThan(RSS_BUDGET_MB);
    expect(after).toBeLessThan(RSS_BUDGET_MB);
  }, 600_000);

  it("keeps one chapter page for every time zone, and the table of contents (release times) per zone", async () => {
    const chapter = await Promise.all(
      ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Paris"].map((zone) =>
        get("/chapter/1", `tz=${zone}`),
      ),
    );
    expect(new Set(chapter.map((reply) => reply.etag)).size).toBe(1);
    // Rendered in no zone: no reader's zone is written into the page another reader gets.
    for (const reply of chapter) expect(reply.body).not.toMatch(/Kiritimati|Pago_Pago|Europe\/Paris/);

    const toc = [];
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      await get("/toc", `tz=${zone}`);
      const reply = await get("/toc", `tz=${zone}`);
      expect(reply.cache).toBe("hit");
      expect(reply.body).toContain(zone);
      toc.push(reply.etag);
    }
    expect(toc[0]).not.toBe(toc[1]);
  });
});
