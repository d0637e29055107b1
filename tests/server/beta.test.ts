import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerReader } from "../support/http";
import { type RunningServer, startServer } from "../support/server";

/**
 * Beta reading over HTTP against the built server (ADR 83): the demo's draft chapter 11 reaches a First
 * Human supporter as a page no cache may keep, and everyone else as the 404 of any missing page; no shared
 * page, feed, sitemap or search engine sees it.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const BETA = 11;
const BETA_WORDS = "The shot did not hit her";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-beta-"));
let server: RunningServer;
let author: Client;
let member: Client;
let free: Client;
let analyst: Client;
let visitor: Client;

/** Gives a reader membership days from their admin page, as the author does (180: First Human, 90: Analyst). */
async function grantDays(name: string, days: number) {
  const list = await (await author.get(`/admin/readers?q=${name}`)).text();
  const id = Number(new RegExp(`href="/admin/readers/(\\d+)"[^>]*>${name}<`).exec(list)?.[1]);
  const granted = await author.post(`/admin/readers/${id}`, {
    intent: "membership",
    days: String(days),
    note: "Beta test",
    confirm: "on",
  });
  expect(granted.status).toBeLessThan(400);
}

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir });
  author = new Client(server.url);
  const authorName = await registerReader(author, dataDir, "beta-writer");
  await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/admin.ts", "grant-author", `${authorName}@example.com`],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" } },
  );
  member = new Client(server.url);
  await grantDays(await registerReader(member, dataDir, "beta-member"), 180);
  free = new Client(server.url);
  await registerReader(free, dataDir, "beta-free");
  analyst = new Client(server.url);
  await grantDays(await registerReader(analyst, dataDir, "beta-analyst"), 90);
  visitor = new Client(server.url);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("beta reading over HTTP", () => {
  it("a First Human supporter reads the draft in a page no cache keeps, noindex", async () => {
    for (let i = 0; i < 2; i++) {
      const response = await member.get(`/beta/${BETA}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      // Answered by its route each time, never from the page cache (server/page-cache.ts's X-Cache).
      expect(["hit", "stale"]).not.toContain(response.headers.get("x-cache"));
      const html = await response.text();
      expect(html).toContain(BETA_WORDS);
      expect(html).toContain('<meta name="robots" content="noindex"');
    }
    const data = await member.get(`/beta/${BETA}.data`);
    expect(data.status).toBe(200);
    expect(data.headers.get("cache-control")).toBe("private, no-store");
    const list = await member.get("/beta");
    expect(list.headers.get("cache-control")).toBe("private, no-store");
    expect(await list.text()).toContain("What the Bells Keep");
  });

  it("a visitor, a free reader and an Analyst get the 404, with no word of it, however often they ask", async () => {
    // The member asked first: a kept copy, were there one, would be served now.
    expect((await member.get(`/beta/${BETA}`)).status).toBe(200);
    for (const client of [visitor, free, analyst])
      for (const pathname of [`/beta/${BETA}`, `/beta/${BETA}.data`, `/beta/${BETA}`]) {
        const response = await client.get(pathname);
        expect(response.status, pathname).toBe(404);
        const text = await response.text();
        expect(text).not.toContain(BETA_WORDS);
        expect(text).not.toContain("What the Bells Keep");
      }
    // The list names no draft to them either.
    for (const client of [visitor, free, analyst])
      expect(await (await client.get("/beta")).text()).not.toContain("What the Bells Keep");
    // A note from one of them is the same 404.
    expect((await free.post(`/beta/${BETA}`, { body: "Let me in" })).status).toBe(404);
  });

  it("no public page, feed or sitemap carries it; robots.txt keeps crawlers out of /beta", async () => {
    for (const pathname of ["/", "/toc", "/chapters", "/feed.atom", "/feed.rss", "/sitemap.xml", "/wiki"]) {
      for (const client of [visitor, member]) {
        const text = await (await client.get(pathname)).text();
        expect(text, pathname).not.toContain(BETA_WORDS);
        expect(text, pathname).not.toContain("What the Bells Keep");
      }
    }
    for (const client of [visitor, member]) {
      const chapter = await client.get(`/chapter/${BETA}`);
      expect(chapter.status).toBe(404);
      expect(await chapter.text()).not.toContain(BETA_WORDS);
    }
    expect(await (await visitor.get("/robots.txt")).text()).toContain("Disallow: /beta");
  });

  it("a note on a paragraph reaches the author's feedback page, quoted", async () => {
    const sent = await member.post(`/beta/${BETA}`, { body: "This line stings.", paragraph: "1" });
    expect(sent.status).toBe(200);
    const refused = await member.post(`/beta/${BETA}`, { body: "x", paragraph: "900" });
    expect(refused.status).toBe(400);
    const editor = await (await author.get("/admin/chapters")).text();
    const id = /href="\/admin\/chapters\/(\d+)"[^>]*>[^<]*What the Bells Keep/.exec(editor)?.[1];
    const page = await author.get(`/admin/chapters/${id}/feedback`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("This line stings.");
    expect(html).toContain(BETA_WORDS);
    expect((await member.get(`/admin/chapters/${id}/feedback`)).status).toBe(404);
  });
});
