import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { chapters, products, siteSettings, supportTiers, volumes, wikiPages } from "#db/schema";
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
import { addSupporter, createChapter } from "../support/factories";

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

/**
 * The loaders over the demo content. What a test asserts it either made itself (factories) or reads from the
 * database at test time: an author editing the demo content must not break a test.
 */
describe.each(drivers)("public loaders on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("home: fundraiser figures computed from the supporter records, the first six products, the latest chapter and its price", async () => {
    const before = (await call(homeLoader, "/")).fundraiser;
    if (!before) throw new Error("the demo content has a fundraiser");
    const name = await addSupporter(12_345);
    const paid = await createChapter({ coinsRequired: 2 });
    const data = await call(homeLoader, "/");
    const raisedCents = before.goal.raisedCents + 12_345;
    expect(data.fundraiser?.goal).toMatchObject({
      raisedCents,
      targetCents: before.goal.targetCents,
      percent: Math.floor((raisedCents / before.goal.targetCents) * 100),
    });
    expect(data.fundraiser?.supporterCount).toBe(before.supporterCount + 1);
    expect(data.fundraiser?.supporters).toHaveLength(Math.min(3, before.supporterCount + 1));
    expect(data.fundraiser?.supporters[0]?.name).toBe(name);
    const shop = await handle.db.select({ id: products.id }).from(products).orderBy(asc(products.id));
    expect(data.products.map((p) => p.id)).toEqual(shop.slice(0, 6).map((p) => p.id));
    // The latest released chapter is a paid one: the tile says so, as the table of contents does.
    expect(data.latest).toMatchObject({ number: paid, status: "paid", coinsRequired: 2 });
  });

  it("fundraiser page agrees with home", async () => {
    const home = await call(homeLoader, "/");
    const data = await call(fundraiserLoader, "/fundraiser");
    expect(data.campaign).toMatchObject({
      raisedCents: home.fundraiser?.goal.raisedCents,
      percent: home.fundraiser?.goal.percent,
    });
    expect(data.supporterCount).toBe(home.fundraiser?.supporterCount);
    const tiers = await handle.db.select().from(supportTiers).orderBy(asc(supportTiers.sortOrder));
    expect(data.tiers.map((tier) => [tier.key, tier.amountCents])).toEqual(
      tiers.map((tier) => [tier.key, tier.amountCents]),
    );
  });

  it("table of contents: every published chapter by volume, free, paid at its price, or locked until released", async () => {
    const free = await createChapter();
    const paid = await createChapter({ coinsRequired: 2 });
    const locked = await createChapter({ coinsRequired: 1, releaseAt: new Date(Date.now() + 86_400_000) });
    const { data } = await call(tocLoader, "/toc");
    const stored = await handle.db
      .select({ number: chapters.number, volume: volumes.title })
      .from(chapters)
      .innerJoin(volumes, eq(volumes.id, chapters.volumeId))
      .where(eq(chapters.status, "published"))
      .orderBy(asc(volumes.number), asc(chapters.number));
    // A serial this short shows every volume open (ADR 37).
    expect(data.volumes.flatMap((v) => (v.chapters ?? []).map((c) => [c.number, v.title]))).toEqual(
      stored.map((c) => [c.number, c.volume]),
    );
    const listed = new Map(data.volumes.flatMap((v) => v.chapters ?? []).map((c) => [c.number, c]));
    expect(listed.get(free)).toMatchObject({ status: "free", coinsRequired: 0 });
    expect(listed.get(paid)).toMatchObject({ status: "paid", coinsRequired: 2 });
    expect(listed.get(locked)).toMatchObject({ status: "locked" });
    expect(data.readable).toEqual(expect.arrayContaining([free, paid]));
    expect(data.readable).not.toContain(locked);
  });

  it("a volume's own address opens it; an unknown or malformed volume is a 404", async () => {
    const [first] = await handle.db.select().from(volumes).orderBy(asc(volumes.number)).limit(1);
    if (!first) throw new Error("the demo content has a volume");
    const { data } = await call(tocLoader, `/toc/volume/${first.number}`, { volume: String(first.number) });
    expect(data.volumes.find((v) => v.number === first.number)?.chapters?.length).toBeGreaterThan(0);
    for (const volume of ["999999", "0", "-1", "1e3", "x", "1234567"])
      expect(await status(call(tocLoader, `/toc/volume/${volume}`, { volume }))).toBe(404);
  });

  it("shop filters by category and by newness; product pages by id, 404 otherwise", async () => {
    const stored = await handle.db.select().from(products).orderBy(asc(products.id));
    const books = await call(shopLoader, "/shop?category=books");
    expect(books.products.map((p) => p.id)).toEqual(
      stored.filter((p) => p.category === "books").map((p) => p.id),
    );
    const all = await call(shopLoader, "/shop?category=bogus");
    expect(all.filter).toBe("all");
    const [one] = stored.filter((p) => p.membershipDays > 0);
    if (!one) throw new Error("the demo content has a product with membership days");
    const product = await call(productLoader, `/shop/product/${one.id}`, { id: String(one.id) });
    expect(product.product).toMatchObject({
      name: one.name,
      priceCents: one.priceCents,
      membershipDays: one.membershipDays,
    });
    expect(product.related.length).toBeGreaterThan(0);
    expect(product.related.map((p) => p.id)).not.toContain(one.id);
    expect(await status(call(productLoader, "/shop/product/9999", { id: "9999" }))).toBe(404);
    expect(await status(call(productLoader, "/shop/product/abc", { id: "abc" }))).toBe(404);
  });

  it("wiki: three sections with their pages; unknown sections and pages are 404", async () => {
    const stored = await handle.db.select().from(wikiPages);
    const wiki = await call(wikiLoader, "/wiki");
    expect(wiki.sections.map((s) => [s.section, s.pages.length])).toEqual(
      (["characters", "world", "items"] as const).map((section) => [
        section,
        stored.filter((page) => page.section === section).length,
      ]),
    );
    const section = await call(wikiSectionLoader, "/wiki/items", { section: "items" });
    expect(section.pages[0]?.slug).toBeDefined();
    const character = stored.find((page) => page.section === "characters");
    if (!character) throw new Error("the demo content has a character page");
    const page = await call(wikiPageLoader, `/wiki/characters/${character.slug}`, {
      section: "characters",
      slug: character.slug,
    });
    expect(page.page.title).toBe(character.title);
    expect(page.html).toContain("<p>");
    expect(await status(call(wikiSectionLoader, "/wiki/spells", { section: "spells" }))).toBe(404);
    expect(await status(call(wikiPageLoader, "/wiki/world/nope", { section: "world", slug: "nope" }))).toBe(
      404,
    );
  });

  it("about and legal pages come from site settings", async () => {
    const [site] = await handle.db.select().from(siteSettings);
    const about = await call(aboutLoader, "/about");
    expect(about.site).toMatchObject({
      author: site?.author,
      role: site?.role,
      startedYear: site?.startedYear,
    });
    const terms = await call(legalLoader, "/terms");
    const privacy = await call(legalLoader, "/privacy");
    expect(terms.html).toContain("<h2>");
    expect(privacy.title).not.toBe(terms.title);
  });
});
