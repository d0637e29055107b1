import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { db } from "#db/client.server";
import { chapters, chapterTranslations, type TranslationKind, translations } from "#db/schema";
import { releasesFeed } from "~/features/feeds/releases.server";
import { loader as aboutLoader } from "~/routes/about";
import { loader as coinsLoader } from "~/routes/coins/index";
import { loader as fundraiserLoader } from "~/routes/fundraiser";
import { loader as galleryLoader } from "~/routes/gallery";
import { loader as homeLoader } from "~/routes/home";
import { loader as shopLoader } from "~/routes/shop/index";
import { loader as productLoader } from "~/routes/shop/product";
import { loader as tocLoader } from "~/routes/toc";
import { loader as wikiLoader } from "~/routes/wiki/index";
import { loader as wikiPageLoader } from "~/routes/wiki/page";
import { loader as wikiSectionLoader } from "~/routes/wiki/section";
import { drivers, openTestDatabase } from "../support/database";

/**
 * The public pages in a language's URL (ADRs 86, 87) with the demo's French translations: the French text, not
 * the English; an item without a translation shows its original.
 */

// biome-ignore lint/suspicious/noExplicitAny: each route's loader has its own argument type
async function call(loader: (args: any) => unknown, path: string, params: Record<string, string> = {}) {
  const answer = await loader({ request: new Request(`http://localhost${path}`), params, context: {} });
  // A loader answering with headers gives `data(…)`: its value is in `data`.
  return (
    answer && typeof answer === "object" && "init" in answer && "data" in answer ? answer.data : answer
  ) as never;
}

/** Deletes one French translation: that item is then untranslated in French. */
const untranslate = (kind: TranslationKind, key: string) =>
  db()
    .delete(translations)
    .where(and(eq(translations.kind, kind), eq(translations.key, key), eq(translations.language, "fr")));

type Toc = {
  volumes: { number: number; title: string; summaryMd: string; chapters?: Chapter[]; lang?: string }[];
};
type Chapter = { number: number; title: string; words?: number; minutes?: number; lang?: string };
const chapterOf = (toc: Toc, number: number) =>
  toc.volumes.flatMap((volume) => volume.chapters ?? []).find((chapter) => chapter.number === number);

describe.each(drivers)("translated pages on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    await untranslate("volume", "2");
    await untranslate("wiki", "characters/ilse-marrow");
    await untranslate("product", "2");
    await untranslate("gallery", "moonglass");
    await untranslate("tier", "observer");
    await untranslate("goal", "Keeping the lamps lit");
    await untranslate("coinPack", "coins-12");
  });
  afterAll(() => handle.close());

  it("shows the table of contents in French: chapter and volume titles, summaries, synopsis", async () => {
    const en: Toc & { synopsis: string } = await call(tocLoader, "/toc");
    const fr: Toc & { synopsis: string } = await call(tocLoader, "/fr/toc");
    expect(chapterOf(fr, 1)?.title).toBe("Le Registre de la Dîme");
    expect(chapterOf(en, 1)?.title).toBe("The Tithe Ledger");
    expect(fr.volumes[0]?.title).toBe("La Lune de sang se lève");
    expect(fr.volumes[0]?.summaryMd).toContain("Nouvelle-Lumen");
    expect(fr.volumes[0]?.summaryMd).not.toBe(en.volumes[0]?.summaryMd);
    expect(fr.synopsis).toContain("Soixante ans après la Longue Nuit");
    expect(en.synopsis).not.toContain("Soixante");
    // Each chapter's length is the shown text's: the French one's words.
    const [french] = await handle.db
      .select({ words: chapterTranslations.wordCount })
      .from(chapterTranslations)
      .innerJoin(chapters, eq(chapters.id, chapterTranslations.chapterId))
      .where(and(eq(chapters.number, 1), eq(chapterTranslations.language, "fr")));
    expect(chapterOf(fr, 1)?.words).toBe(french?.words);
    expect(chapterOf(fr, 1)?.words).not.toBe(chapterOf(en, 1)?.words);
    // Untranslated: chapter 4, and volume 2 (its French deleted), as the original.
    expect(chapterOf(fr, 4)?.title).toBe(chapterOf(en, 4)?.title);
    expect(chapterOf(fr, 4)?.words).toBe(chapterOf(en, 4)?.words);
    expect(fr.volumes[1]?.title).toBe(en.volumes[1]?.title);
    expect(fr.volumes[1]?.summaryMd).toBe(en.volumes[1]?.summaryMd);
    // ...and marked as English (ADR 97), the translated ones not; nothing is marked in English.
    expect(chapterOf(fr, 4)?.lang).toBe("en");
    expect(chapterOf(fr, 1)?.lang).toBeUndefined();
    expect(fr.volumes[1]?.lang).toBe("en");
    expect(fr.volumes[0]?.lang).toBeUndefined();
    expect(JSON.stringify(en)).not.toContain('"lang"');
  });

  it("shows the author's page in French: their words, place and role; in English the original", async () => {
    type About = { site: { location: string; role: string }; aboutHtml: string; untranslated?: unknown };
    const en: About = await call(aboutLoader, "/about");
    const fr: About = await call(aboutLoader, "/fr/about");
    expect(fr.site).toMatchObject({ location: "Lisbonne, Portugal", role: "Autrice et illustratrice" });
    expect(fr.aboutHtml).toContain("J’ai commencé");
    expect(fr.untranslated).toBeUndefined();
    expect(en.aboutHtml).not.toContain("J’ai commencé");
    expect(en.site.location).not.toBe(fr.site.location);
  });

  it("shows the home page in French: title, tagline, synopsis, the latest chapter and the products", async () => {
    type Home = {
      site: { tagline: string; synopsis: string };
      latest?: Chapter;
      products: { id: number; name: string }[];
    };
    const en: Home = await call(homeLoader, "/");
    const fr: Home = await call(homeLoader, "/fr");
    expect(fr.site.tagline).toBe("Les liens du sang sont plus forts que le destin.");
    expect(en.site.tagline).toBe("Blood bonds are stronger than fate.");
    expect(fr.site.synopsis).toContain("Soixante ans");
    const product = fr.products.find((item) => item.id === 1);
    expect(product?.name).toBe("Lot de marque-pages (5 pièces)");
    expect(en.products.find((item) => item.id === 1)?.name).not.toBe(product?.name);
    // The latest chapter has no French translation in the demo: its original title.
    expect(fr.latest?.title).toBe(en.latest?.title);
  });

  it("shows the wiki in French: the lists' titles and summaries, a page's title, summary and text", async () => {
    type Item = { slug: string; title: string; summary?: string };
    const titleIn = (pages: Item[], slug: string) => pages.find((page) => page.slug === slug)?.title;
    const wiki: { sections: { pages: Item[] }[] } = await call(wikiLoader, "/fr/wiki");
    const listed = wiki.sections.flatMap((section) => section.pages);
    expect(titleIn(listed, "hollis-crane")).toBe("Le directeur Hollis Crane");
    expect(titleIn(listed, "ilse-marrow")).toBe("Ilse Marrow");
    const section: { pages: Item[] } = await call(wikiSectionLoader, "/fr/wiki/characters", {
      section: "characters",
    });
    const crane = section.pages.find((page) => page.slug === "hollis-crane");
    expect(crane?.summary).toContain("Le souriant chef humain");
    expect(section.pages.find((page) => page.slug === "ilse-marrow")?.summary).toContain("meticulous");

    type WikiPage = { page: Item; html: string; untranslated?: { versions: string[] } };
    const params = (slug: string) => ({ section: "characters", slug });
    const fr: WikiPage = await call(
      wikiPageLoader,
      "/fr/wiki/characters/hollis-crane",
      params("hollis-crane"),
    );
    expect(fr.page.title).toBe("Le directeur Hollis Crane");
    expect(fr.html).toContain("l’humain le plus puissant de Nouvelle-Lumen");
    expect(fr.html).not.toContain("most powerful human");
    expect(fr.untranslated).toBeUndefined();
    const en: WikiPage = await call(wikiPageLoader, "/wiki/characters/hollis-crane", params("hollis-crane"));
    expect(en.page.title).toBe("Director Hollis Crane");
    expect(en.untranslated).toBeUndefined();
    // Untranslated in French: the original, said so, with the versions there are.
    const ilse: WikiPage = await call(
      wikiPageLoader,
      "/fr/wiki/characters/ilse-marrow",
      params("ilse-marrow"),
    );
    expect(ilse.page.title).toBe("Ilse Marrow");
    expect(ilse.page.summary).toContain("meticulous");
    expect(ilse.untranslated?.versions[0]).toBe("en");
    expect(ilse.untranslated?.versions).toContain("ja");
    expect(ilse.untranslated?.versions).not.toContain("fr");
  });

  it("shows the shop in French: the list's names, a product's name and details, the gallery's pieces", async () => {
    type Item = { id: number; name: string; priceCents: number };
    const nameOf = (items: Item[], id: number) => items.find((item) => item.id === id)?.name;
    const en: { products: Item[] } = await call(shopLoader, "/shop");
    const fr: { products: Item[] } = await call(shopLoader, "/fr/shop");
    expect(nameOf(fr.products, 1)).toBe("Lot de marque-pages (5 pièces)");
    expect(nameOf(en.products, 1)).toBe("Bookmark Set (5pc)");
    expect(nameOf(fr.products, 2)).toBe("Signed Book Volume 1");
    // Prices are the original's.
    expect(fr.products.map((item) => item.priceCents)).toEqual(en.products.map((item) => item.priceCents));

    type ProductPage = {
      product: Item;
      html: string;
      summary: string;
      pieces: { title: string }[];
      related: Item[];
      untranslated?: { versions: string[] };
    };
    const one: ProductPage = await call(productLoader, "/fr/shop/product/1", { id: "1" });
    expect(one.product.name).toBe("Lot de marque-pages (5 pièces)");
    expect(one.html).toContain("Cinq marque-pages recto verso");
    expect(one.summary).toContain("Cinq marque-pages");
    expect(one.html).not.toContain("Five double-sided");
    expect(one.untranslated).toBeUndefined();
    const two: ProductPage = await call(productLoader, "/fr/shop/product/2", { id: "2" });
    expect(two.product.name).toBe("Signed Book Volume 1");
    expect(two.untranslated?.versions).toContain("ja");
    expect(two.untranslated?.versions).not.toContain("fr");
    const english: ProductPage = await call(productLoader, "/shop/product/2", { id: "2" });
    expect(english.untranslated).toBeUndefined();
    const print: ProductPage = await call(productLoader, "/fr/shop/product/3", { id: "3" });
    expect(print.pieces.map((piece) => piece.title)).toEqual(
      expect.arrayContaining(["Le Marché des Cendres", "Moonglass"]),
    );
    for (const related of print.related)
      expect(related.name).toBe(nameOf(related.id === 2 ? en.products : fr.products, related.id));

    type Gallery = { items: { slug: string; title: string; html: string }[] };
    const gallery: Gallery = await call(galleryLoader, "/fr/gallery");
    const piece = (slug: string) => gallery.items.find((item) => item.slug === slug);
    expect(piece("ash-market")?.title).toBe("Le Marché des Cendres");
    expect(piece("moonglass")?.title).toBe("Moonglass");
    expect(piece("moonglass")?.html).not.toContain("clair de lune");
    const englishGallery: Gallery = await call(galleryLoader, "/gallery");
    expect(englishGallery.items.find((item) => item.slug === "ash-market")?.title).toBe("Ash Market");
  });

  it("shows the fundraiser's goals and tiers and the coin packs in French, amounts as they are", async () => {
    type Fundraiser = {
      campaign?: { title: string; targetCents: number };
      monthly?: { title: string; html: string };
      tiers: { key: string; amountCents: number; perks: string[]; pitch: string }[];
    };
    const en: Fundraiser = await call(fundraiserLoader, "/fundraiser");
    const fr: Fundraiser = await call(fundraiserLoader, "/fr/fundraiser");
    expect(fr.campaign?.title).toBe("Édition illustrée du volume 2");
    expect(en.campaign?.title).toBe("Volume 2 illustrated edition");
    expect(fr.campaign?.targetCents).toBe(en.campaign?.targetCents);
    expect(fr.monthly?.title).toBe("Keeping the lamps lit");
    expect(fr.monthly?.html).toBe(en.monthly?.html);
    const tier = (page: Fundraiser, key: string) => page.tiers.find((item) => item.key === key);
    expect(tier(fr, "analyst")?.perks).toEqual([
      "Tous les avantages Observateur",
      "Questions-réponses mensuelles",
      "Vote sur les illustrations",
    ]);
    expect(tier(fr, "analyst")?.pitch).toContain("Entrez aux Archives");
    expect(tier(en, "analyst")?.pitch).toContain("Step into the Archive");
    expect(tier(fr, "analyst")?.amountCents).toBe(tier(en, "analyst")?.amountCents);
    expect(tier(fr, "observer")).toEqual(tier(en, "observer"));

    type Coins = { packs: { key: string; coins: number; priceCents: number; description: string }[] };
    const pack = (page: Coins, key: string) => page.packs.find((item) => item.key === key);
    const coins: Coins = await call(coinsLoader, "/fr/coins");
    const englishCoins: Coins = await call(coinsLoader, "/coins");
    expect(pack(coins, "coins-5")?.description).toBe("De quoi lire les cinq prochains chapitres.");
    expect(pack(englishCoins, "coins-5")?.description).toBe("Enough for the next five chapters.");
    expect(pack(coins, "coins-12")).toEqual(pack(englishCoins, "coins-12"));
    expect(coins.packs.map(({ coins, priceCents }) => [coins, priceCents])).toEqual(
      englishCoins.packs.map(({ coins, priceCents }) => [coins, priceCents]),
    );
  });

  it("carries the French titles in the French feed, the original's where a chapter has none", async () => {
    for (const format of ["atom", "rss"] as const) {
      const fr = await releasesFeed(format, undefined, "fr");
      const en = await releasesFeed(format);
      expect(fr).toContain("Le Registre de la Dîme");
      expect(fr).not.toContain("The Tithe Ledger");
      expect(en).toContain("The Tithe Ledger");
      expect(en).not.toContain("Le Registre de la Dîme");
      // Chapter 4 has no French translation: its original title.
      expect(fr).toContain("Curfew Bells");
    }
  });
});
