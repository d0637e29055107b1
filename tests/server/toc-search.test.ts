import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../support/server";

/**
 * The table of contents' search and jump without JavaScript (ADR 92): plain GET forms the server answers, past
 * the page cache, which keeps /toc itself.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-toc-search-"));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const page = async (query: string) => {
  const response = await fetch(`${server.url}/toc${query}`, { redirect: "manual" });
  return { response, html: await response.text() };
};
/** The chapter rows a page lists, by their anchors. */
const rows = (html: string) => [...html.matchAll(/<li id="chapter-(\d+)"/g)].map((match) => Number(match[1]));

describe("the table of contents without JavaScript", () => {
  it("lists the chapters whose title holds ?q=, in their volumes, whatever the case and accents", async () => {
    const all = await page("");
    expect(rows(all.html)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The kept /toc is not the answer to a search: "the" in volume 1 and in volume 2 ("What the Bond...").
    const { response, html } = await page(`?q=${encodeURIComponent("THÉ")}`);
    expect(response.status).toBe(200);
    expect(rows(html)).toEqual([1, 2, 5, 7, 9]);
    expect(html).toContain("5 chapters match");
    expect(html).toContain('id="volume-2"');
    const moon = await page("?q=moon");
    expect(rows(moon.html)).toEqual([3, 7]);
    expect(moon.html).not.toContain('id="volume-2"');
    expect(rows((await page("?q=moon")).html)).toEqual([3, 7]);
    expect(rows((await page("?q=")).html)).toHaveLength(10);
  });

  it("says when no chapter matches, and cuts a long search instead of refusing it", async () => {
    const none = await page("?q=seance");
    expect(none.response.status).toBe(200);
    expect(rows(none.html)).toEqual([]);
    expect(none.html).toContain("No chapter matches “seance”");
    const long = await page(`?q=${"x".repeat(5000)}`);
    expect(long.response.status).toBe(200);
    expect(long.html).toContain(`No chapter matches “${"x".repeat(100)}”`);
    expect(long.html).not.toContain("x".repeat(101));
    expect((await page("?q=%E0%A4%A")).response.status).toBe(200);
  });

  it("jumps to a chapter's row, or says there is none", async () => {
    const found = await page("?chapter=9");
    expect(found.response.status).toBe(302);
    expect(found.response.headers.get("location")).toBe("/toc#chapter-9");
    const out = await page("?chapter=12");
    expect(out.response.status).toBe(200);
    expect(out.html).toContain("There is no chapter 12.");
    for (const given of ["0", "-3", "abc", "9".repeat(300), "1e3", "1%2C5"]) {
      const { response, html } = await page(`?chapter=${given}`);
      expect(response.status, given).toBe(200);
      expect(html, given).toMatch(/There is no chapter 0\.|Enter a chapter number from 1 to 10\./);
    }
    const spanish = await fetch(`${server.url}/toc?chapter=40`, { headers: { cookie: "lang=es" } });
    expect(await spanish.text()).toContain("No existe el capítulo 40.");
  });
});
