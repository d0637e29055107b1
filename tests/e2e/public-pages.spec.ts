import { expect, hydrated, test } from "./fixtures";

/** Each public page, a text it must show in English and in Japanese, and a link it must have. */
const pages = [
  { path: "/", en: "FUNDRAISER GOALS", ja: "募金目標", link: "/chapter/1" },
  { path: "/about", en: "ABOUT ME", ja: "私について", link: "/chapter/1" },
  { path: "/chapters", en: "Your Journey Awaits", ja: "あなたの旅が待っています", link: "/chapter/3" },
  { path: "/toc", en: "Your Journey Awaits", ja: "あなたの旅が待っています", link: "/chapter/1" },
  { path: "/wiki", en: "World Building", ja: "世界観", link: "/wiki/items" },
  { path: "/wiki/characters", en: "Characters", ja: "登場人物", link: "/wiki/characters/ilse-marrow" },
  { path: "/wiki/world/new-lumen", en: "New Lumen", ja: "New Lumen", link: "/wiki/world" },
  { path: "/gallery", en: "Art Gallery", ja: "アートギャラリー", link: "/terms" },
  { path: "/shop", en: "Buy Now", ja: "今すぐ購入", link: "/shop/product/1" },
  { path: "/shop/product/1", en: "Bookmark Set (5pc)", ja: "Bookmark Set (5pc)", link: "/shop" },
  {
    path: "/fundraiser",
    en: "Support Tiers",
    ja: "支援ティア",
    link: "/fundraiser?supporters=all#supporters",
  },
  { path: "/terms", en: "Last updated", ja: "最終更新", link: "/privacy" },
  { path: "/privacy", en: "Last updated", ja: "最終更新", link: "/terms" },
] as const;

for (const lang of ["en", "ja"] as const) {
  for (const theme of ["light", "dark"] as const) {
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
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          await page.screenshot({
            path: testInfo.outputPath(`${entry.path.replace(/\W+/g, "_") || "home"}-${lang}-${theme}.png`),
            fullPage: true,
          });
        });
      }
    });
  }
}
