import { parseFeed } from "@rowanmanning/feed-parser";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { chapters } from "#db/schema";
import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { excerptOf, releasesFeed } from "~/features/feeds/releases.server";
import { robots, sitemap } from "~/features/feeds/sitemap.server";
import { siteRoutes } from "~/routes";
import { openTestDatabase } from "../support/database";
import { createChapter } from "../support/factories";

/** The releases feed (ADR 44): what a feed reader gets, parsed by a feed parser as one would. */
describe("the releases feed", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("pglite");
  });
  afterAll(() => handle.close());

  const bodyOf = async (number: number) =>
    (await handle.db.select({ bodyMd: chapters.bodyMd }).from(chapters).where(eq(chapters.number, number)))[0]
      ?.bodyMd ?? "";

  for (const format of ["atom", "rss"] as const)
    it(`lists every released chapter, newest first, and no text a visitor cannot read (${format})`, async () => {
      const now = new Date();
      const xml = await releasesFeed(format, now);
      const feed = parseFeed(xml);
      expect(feed.meta.type).toBe(format);
      expect(feed.title).toBe("Crimson Covenant");
      const catalog = await getChapterCatalog();
      const released = catalog.published.filter((chapter) => chapterStatus(chapter, now) !== "locked");
      const scheduled = catalog.published.filter((chapter) => chapterStatus(chapter, now) === "locked");
      expect(scheduled.length).toBeGreaterThan(0);
      expect(feed.items.map((item) => item.url)).toEqual(
        [...released]
          .sort((a, b) => b.releaseAt.getTime() - a.releaseAt.getTime() || b.number - a.number)
          .map((chapter) => `http://localhost:3000/chapter/${chapter.number}`),
      );
      for (const chapter of scheduled) expect(xml).not.toContain(chapter.title);
      const first = feed.items.find((item) => item.url?.endsWith("/chapter/1"));
      expect(first?.title).toBe(`Chapter 1: ${catalog.byNumber.get(1)?.title}`);
      expect(first?.description).toBe(excerptOf(await bodyOf(1)));
      // A paid chapter: an invitation to unlock it, and not a word of its text.
      const paid = released.find((chapter) => chapterStatus(chapter, now) === "paid");
      if (!paid) throw new Error("the demo has a released paid chapter");
      const entry = feed.items.find((item) => item.url?.endsWith(`/chapter/${paid.number}`));
      const coins = paid.coinsRequired === 1 ? "1 coin" : `${paid.coinsRequired} coins`;
      expect(entry?.description).toBe(`A new chapter, to unlock with ${coins} on the site.`);
      const opening = excerptOf(await bodyOf(paid.number), 40).replace("…", "");
      expect(xml).not.toContain(opening);
    });

  it("cuts an excerpt at a word, as plain text, whatever the Markdown holds", () => {
    expect(excerptOf("The **bell** rang & <script>alert(1)</script> once.")).toBe("The bell rang & once.");
    const long = excerptOf(`${"word ".repeat(100)}end`, 30);
    expect(long).toBe("word word word word word word…");
    expect(excerptOf("[a link](javascript:alert(1)) stays text")).toBe("a link stays text");
    expect(excerptOf("Caf&#xe9; &#233; &lt;b&gt; &bogus;")).toBe("Café é <b> &bogus;");
  });

  it("gives a free chapter's opening as its reader reads it, the same in both formats", async () => {
    const number = await createChapter({
      body: "## A Heading\n\nIt was *eleven*, then twelve. A [bad link](https://example.com/x).\n\n> Blood **binds**.",
    });
    for (const format of ["atom", "rss"] as const) {
      const entry = parseFeed(await releasesFeed(format)).items.find((item) =>
        item.url?.endsWith(`/chapter/${number}`),
      );
      expect(entry?.description).toBe("It was eleven, then twelve. A bad link. Blood binds.");
    }
  });

  it("maps the public pages, every released chapter and no scheduled one, the wiki and the products", async () => {
    const now = new Date();
    const xml = await sitemap(now);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ),
    ).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) =>
      match[1]?.replace("http://localhost:3000", ""),
    );
    const catalog = await getChapterCatalog();
    const chaptersListed = locs.filter((loc) => loc?.startsWith("/chapter/"));
    expect(chaptersListed).toEqual(
      catalog.published
        .filter((chapter) => chapterStatus(chapter, now) !== "locked")
        .map((chapter) => `/chapter/${chapter.number}`),
    );
    expect(catalog.published.some((chapter) => chapterStatus(chapter, now) === "locked")).toBe(true);
    expect(locs).toEqual(expect.arrayContaining(["/", "/toc", "/wiki/world/new-lumen", "/shop/product/1"]));
    expect(new Set(locs).size).toBe(locs.length);
    // Each page at each language's address (ADR 87), every one naming all five as alternates.
    for (const language of ["en", "es", "fr", "ja"])
      expect(locs.filter((loc) => loc?.startsWith(`/${language}/chapter/`))).toHaveLength(
        chaptersListed.length,
      );
    const alternates = ["en", "es", "fr", "ja"]
      .map((l) => `<xhtml:link rel="alternate" hreflang="${l}" href="http://localhost:3000/${l}/chapter/1"/>`)
      .join("");
    const xDefault =
      '<xhtml:link rel="alternate" hreflang="x-default" href="http://localhost:3000/chapter/1"/>';
    for (const loc of ["/chapter/1", "/es/chapter/1", "/ja/chapter/1"])
      expect(xml).toMatch(
        new RegExp(
          `<url><loc>http://localhost:3000${loc}</loc><lastmod>[\\d-]{10}</lastmod>${alternates}${xDefault}</url>`,
        ),
      );
    const text = robots(siteRoutes.disallowed);
    expect(text).toMatch(/^User-agent: \*\nDisallow: \//);
    for (const path of ["/admin", "/account", "/settings", "/checkout", "/pay/test/", "/webhooks/"])
      expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).toContain("Disallow: /es/account\n");
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });
});
