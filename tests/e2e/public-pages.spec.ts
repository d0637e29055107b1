import en from "../../app/i18n/locales/en.json" with { type: "json" };
import ja from "../../app/i18n/locales/ja.json" with { type: "json" };
import { expect, hydrated, test } from "../support/fixtures";

/** Each public page, a text it must show in English and in Japanese (from the catalogues), and a link it must have. */
const updated = (catalogue: { legal: { updated: string } }) =>
  catalogue.legal.updated.replace(/\{\{date\}\}.*/, "");
const pages = [
  { path: "/", en: en.home.fundraiserGoals, ja: ja.home.fundraiserGoals, link: "/chapter/1" },
  { path: "/about", en: en.about.heading, ja: ja.about.heading, link: "/chapter/1" },
  { path: "/chapters", en: en.toc.heading, ja: ja.toc.heading, link: "/chapter/3" },
  { path: "/toc", en: en.toc.heading, ja: ja.toc.heading, link: "/chapter/1" },
  { path: "/wiki", en: en.wiki.heading, ja: ja.wiki.heading, link: "/wiki/items" },
  {
    path: "/wiki/characters",
    en: en.wiki.sections.characters.title,
    ja: ja.wiki.sections.characters.title,
    link: "/wiki/characters/ilse-marrow",
  },
  // The author's content in the page's language: the demo translates the wiki and the shop.
  { path: "/wiki/world/new-lumen", en: "New Lumen", ja: "ニュー・ルーメン", link: "/wiki/world" },
  { path: "/gallery", en: en.gallery.heading, ja: ja.gallery.heading, link: "/terms" },
  { path: "/shop", en: en.cart.add.button, ja: ja.cart.add.button, link: "/shop/product/1" },
  { path: "/shop/product/1", en: "Bookmark Set (5pc)", ja: "しおりセット（5枚組）", link: "/shop" },
  {
    path: "/fundraiser",
    en: en.fundraiser.tiersHeading,
    ja: ja.fundraiser.tiersHeading,
    link: "/fundraiser/supporters",
  },
  {
    path: "/fundraiser/supporters",
    en: en.supporters.heading,
    ja: ja.supporters.heading,
    link: "/fundraiser",
  },
  { path: "/terms", en: updated(en), ja: updated(ja), link: "/privacy" },
  { path: "/privacy", en: updated(en), ja: updated(ja), link: "/terms" },
] as const;

// The theme does not depend on the language: English in both themes, Japanese (its glyphs, its line breaks)
// in the light one.
const looks = [
  { lang: "en", theme: "light" },
  { lang: "en", theme: "dark" },
  { lang: "ja", theme: "light" },
] as const;

for (const { lang, theme } of looks) {
  test.describe(`${lang}, ${theme}`, () => {
    for (const entry of pages) {
      test(`${entry.path}`, async ({ page, prefer }, testInfo) => {
        await prefer({ lang, theme });
        const response = await page.goto(entry.path);
        expect(response?.status()).toBe(200);
        await hydrated(page);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        if (theme === "dark") await expect(page.locator("html")).toHaveClass(/dark/);
        else await expect(page.locator("html")).not.toHaveClass(/dark/);
        await expect(page.getByText(entry[lang], { exact: false }).first()).toBeVisible();
        await expect(page.locator(`a[href="${entry.link}"]`).first()).toBeAttached();
        // Nothing may stick out sideways, down to a 360 px phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: testInfo.outputPath(`${entry.path.replace(/\W+/g, "_") || "home"}-${lang}-${theme}.png`),
          fullPage: true,
        });
      });
    }
  });
}

test("the home page's latest chapter tile shows a paid chapter's price", async ({ page, prefer }) => {
  for (const [lang, price] of [
    ["en", "1 coin"],
    ["ja", ja.toc.coins_other.replace("{{count}}", "1")],
  ] as const) {
    await prefer({ lang });
    await page.goto("/");
    // Chapter 9 is the latest released one in the demo content, and costs a coin.
    const tile = page.locator('#latest a[href="/chapter/9"]');
    await expect(tile).toContainText(price);
    await expect(tile).not.toContainText(lang === "en" ? en.toc.free : ja.toc.free);
  }
});
