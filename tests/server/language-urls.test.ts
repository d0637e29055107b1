import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import es from "../../app/i18n/locales/es.json" with { type: "json" };
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";

/**
 * Each language's URL (ADR 87) over HTTP: `/es/…` is the page in Spanish whatever the reader's cookie, with
 * its links, alternates and Open Graph locale; the unprefixed page is as before; odd prefixes never fail.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-lang-urls-"));
let server: RunningServer;
let origin = "";

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, APP_ORIGIN: origin });
  server.url = origin;
  await waitUntilReady(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = (pathname: string, cookie = "lang=fr") =>
  fetch(`${origin}${pathname}`, { headers: { cookie }, redirect: "manual" });

describe("language URLs", () => {
  it("serves /es/chapter/1 in Spanish for a French reader, with alternates, og tags and Spanish links", async () => {
    for (const attempt of ["first", "kept"]) {
      const response = await get("/es/chapter/1");
      expect(response.status, attempt).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/<html lang="es"/);
      for (const language of ["en", "es", "fr", "ja"])
        expect(html).toContain(
          `<link rel="alternate" hrefLang="${language}" href="${origin}/${language}/chapter/1"/>`,
        );
      expect(html).toContain(`<link rel="alternate" hrefLang="x-default" href="${origin}/chapter/1"/>`);
      expect(html).toContain(`<link rel="canonical" href="${origin}/es/chapter/1"/>`);
      expect(html).toContain(`<meta property="og:locale" content="es_ES"/>`);
      expect(html).toContain(`<meta property="og:locale:alternate" content="ja_JP"/>`);
      // The next chapter, and the browser's router, stay under /es/.
      expect(html).toMatch(/href="\/es\/chapter\/2"/);
      expect(html).not.toMatch(/href="\/chapter\/2"/);
      expect(html).toContain('"basename":"/es"');
      expect(html).toContain('href="/es/feed.atom"');
      // The footer's plain links too.
      expect(html).toContain('<a href="/es/terms">');
    }
  });

  it("leaves /chapter/1 as it was for a cookie reader: their language, the unprefixed links", async () => {
    const html = await (await get("/chapter/1")).text();
    expect(html).toMatch(/<html lang="fr"/);
    expect(html).toMatch(/href="\/chapter\/2"/);
    expect(html).toContain(`<link rel="canonical" href="${origin}/chapter/1"/>`);
    expect(html).toContain(`<meta property="og:locale" content="fr_FR"/>`);
    expect(html).not.toContain('"basename":"/es"');
  });

  it("serves the demo's Spanish chapters 1 to 3 and pages, and chapter 4 in English with the note", async () => {
    const two = await (await get("/es/chapter/2")).text();
    expect(two).toContain("El Guardián de la Puerta del Este");
    expect(two).toContain("Después del toque de queda, Nueva Lumen pertenecía");
    expect(two).not.toContain('role="note"');
    const three = await (await get("/es/chapter/3")).text();
    expect(three).toContain("Ceniza y vidrio lunar");
    expect(three).not.toContain('role="note"');
    expect(await (await get("/es/terms")).text()).toContain("Condiciones de uso");
    const four = await (await get("/es/chapter/4")).text();
    expect(four).toContain('role="note"');
    expect(four).toContain(es.notices.untranslated);
  });

  it("answers a language's route data and home page", async () => {
    const data = await get("/es/chapter/2.data");
    expect(data.status).toBe(200);
    const home = await get("/ja");
    expect(home.status).toBe(200);
    expect(await home.text()).toMatch(/<html lang="ja"/);
  });

  it("sends a language's admin URL to the admin's one address", async () => {
    const response = await get("/es/admin/chapters?x=1");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/admin/chapters?x=1");
    expect((await get("/es/admin.data")).status).toBe(404);
  });

  it("leads the picker's choice to the chosen language's URL and saves it", async () => {
    const response = await fetch(`${origin}/preferences`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin,
        referer: `${origin}/es/chapter/2?x=1`,
      },
      body: "lang=fr",
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/fr/chapter/2?x=1");
    expect(response.headers.get("set-cookie")).toMatch(/lang=fr/);
    const plain = await fetch(`${origin}/preferences`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin, referer: `${origin}/toc` },
      body: "lang=ja",
      redirect: "manual",
    });
    expect(plain.headers.get("location")).toBe("/ja/toc");
  });

  it("lists every language's address with its alternates in the sitemap, and a Spanish feed", async () => {
    const xml = await (await get("/sitemap.xml")).text();
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(xml).toContain(`<loc>${origin}/es/chapter/1</loc>`);
    expect(xml).toContain(`<loc>${origin}/chapter/1</loc>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="ja" href="${origin}/ja/chapter/1"/>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${origin}/chapter/1"/>`);
    const robots = await (await get("/robots.txt")).text();
    expect(robots).toContain("Disallow: /es/account");
    const feed = await get("/es/feed.atom");
    expect(feed.status).toBe(200);
    const atom = await feed.text();
    expect(atom).toContain(`${origin}/es/chapter/1`);
    expect(atom).toContain(`href="${origin}/es/feed.atom"`);
  });

  it("never fails on an odd prefix (fuzz)", async () => {
    const odd = [
      "/ES/chapter/1",
      "/es//x",
      "/xx/chapter/1",
      "/es/../admin",
      "/es/%2e%2e/admin",
      "/es/es/chapter/1",
      "/es/",
      "/es.data",
      "/es/_root.data",
      "/es/__manifest?paths=%2Fes%2Fchapter%2F1&version=x",
      "/ja/chapter/%00",
      "/fr/wiki/%E0%A4%A",
      "/en/admin/",
    ];
    for (const pathname of odd) {
      const response = await get(pathname);
      expect(response.status, pathname).toBeLessThan(500);
      await response.body?.cancel();
    }
  });
});
