import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { loader as aboutLoader } from "~/routes/about";
import { loader as fundraiserLoader } from "~/routes/fundraiser";
import { loader as homeLoader } from "~/routes/home";
import { loader as legalLoader } from "~/routes/legal";
import { loader as shopLoader } from "~/routes/shop/index";
import { loader as productLoader } from "~/routes/shop/product";
import { loader as tocLoader } from "~/routes/toc";
import { loader as wikiLoader } from "~/routes/wiki/index";
import { loader as wikiPageLoader } from "~/routes/wiki/page";
import { loader as wikiSectionLoader } from "~/routes/wiki/section";
import { drivers, openTestDatabase } from "../support/database";

/** Calls a route loader the way React Router does. */
// biome-ignore lint/suspicious/noExplicitAny: loaders are called with the subset of arguments they read
function call<T>(loader: (args: any) => T, path: string, params: Record<string, string> = {}): T {
  return loader({ request: new Request(`http://localhost${path}`), params, context: {} });
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status ?? 500;
  }
}

describe.each(drivers)("public loaders on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("home: fundraiser figures computed from the supporter records, six products, latest chapter and its price", async () => {
    const data = await call(homeLoader, "/");
    expect(data.fundraiser).toMatchObject({
      raisedCents: 650_000,
      targetCents: 1_000_000,
      percent: 65,
      supporterCount: 127,
    });
    expect(data.fundraiser?.supporters).toHaveLength(3);
    expect(data.products.map((p) => p.name)).toContain("Custom Commission");
    expect(data.products).toHaveLength(6);
    // The latest released chapter is a paid one: the tile says so, as the table of contents does.
    expect(data.latest).toMatchObject({ number: 9, status: "paid", coinsRequired: 1 });
  });

  it("fundraiser page agrees with home and lists all supporters on request", async () => {
    const data = await call(fundraiserLoader, "/fundraiser");
    expect(data.fundraiser).toMatchObject({ raisedCents: 650_000, percent: 65 });
    expect(data.tiers.map((tier) => [tier.key, tier.amountCents])).toEqual([
      ["observer", 300],
      ["analyst", 700],
      ["first_human", 1500],
    ]);
    const all = await call(fundraiserLoader, "/fundraiser?supporters=all");
    expect(all.fundraiser?.supporters).toHaveLength(127);
  });

  it("table of contents: two volumes, 1-3 free, 4-9 paid at 1 coin, 10 locked", async () => {
    const { data } = await call(tocLoader, "/toc");
    expect(data.volumes.map((v) => [v.title, v.chapters.length])).toEqual([
      ["The Blood Moon Rising", 7],
      ["The Ancient Bloodline", 3],
    ]);
    const chapters = data.volumes.flatMap((v) => v.chapters);
    expect(chapters.map((c) => c.status)).toEqual([
      ...Array(3).fill("free"),
      ...Array(6).fill("paid"),
      "locked",
    ]);
    expect(chapters.filter((c) => c.status === "paid").every((c) => c.coinsRequired === 1)).toBe(true);
  });

  it("shop filters by category and by newness; product pages by id, 404 otherwise", async () => {
    const books = await call(shopLoader, "/shop?category=books");
    expect(books.products.map((p) => p.id)).toEqual([1, 2]);
    const all = await call(shopLoader, "/shop?category=bogus");
    expect(all.filter).toBe("all");
    const product = await call(productLoader, "/shop/product/4", { id: "4" });
    expect(product.product).toMatchObject({
      name: "Limited Edition Box Set",
      priceCents: 12000,
      membershipDays: 180,
    });
    expect(product.related.length).toBeGreaterThan(0);
    expect(product.related.map((p) => p.id)).not.toContain(4);
    expect(await status(call(productLoader, "/shop/product/9999", { id: "9999" }))).toBe(404);
    expect(await status(call(productLoader, "/shop/product/abc", { id: "abc" }))).toBe(404);
  });

  it("wiki: three sections with their pages; unknown sections and pages are 404", async () => {
    const wiki = await call(wikiLoader, "/wiki");
    expect(wiki.sections.map((s) => [s.section, s.pages.length])).toEqual([
      ["characters", 5],
      ["world", 5],
      ["items", 4],
    ]);
    const section = await call(wikiSectionLoader, "/wiki/items", { section: "items" });
    expect(section.pages[0]?.slug).toBeDefined();
    const page = await call(wikiPageLoader, "/wiki/characters/ilse-marrow", {
      section: "characters",
      slug: "ilse-marrow",
    });
    expect(page.page.title).toBe("Ilse Marrow");
    expect(page.html).toContain("<p>");
    expect(await status(call(wikiSectionLoader, "/wiki/spells", { section: "spells" }))).toBe(404);
    expect(await status(call(wikiPageLoader, "/wiki/world/nope", { section: "world", slug: "nope" }))).toBe(
      404,
    );
  });

  it("about and legal pages come from site settings", async () => {
    const about = await call(aboutLoader, "/about");
    expect(about.site).toMatchObject({ author: "Mara Vale", role: "Writer & Artist", startedYear: 2024 });
    const terms = await call(legalLoader, "/terms");
    const privacy = await call(legalLoader, "/privacy");
    expect(terms.html).toContain("<h2>");
    expect(privacy.title).not.toBe(terms.title);
  });
});
