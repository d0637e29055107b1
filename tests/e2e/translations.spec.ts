import fr from "../../app/i18n/locales/fr.json" with { type: "json" };
import { expect, hydrated, test } from "../support/fixtures";

// A reader whose language is French (the demo translates chapters 1-3 into French, Spanish and Japanese):
// chapter 1 is in French, chapter 5 in English with the note and the versions there are (ADR 86).
test("a French reader reads chapter 1 in French and chapter 5 in English, with the note", async ({
  page,
  prefer,
}, testInfo) => {
  const dark = testInfo.project.name.includes("phone");
  await prefer({ lang: "fr", theme: dark ? "dark" : "light" });
  await page.goto("/chapter/1");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.locator("[data-chapter-body]")).toContainText("La cendre tomba à quatre heures");
  await expect(page.locator("[data-chapter-body]")).not.toContainText("The ash came down");
  await expect(page.getByRole("note")).toHaveCount(0);

  await page.goto("/chapter/5");
  await hydrated(page);
  const note = page.getByRole("note");
  await expect(note).toContainText(fr.notices.untranslated);
  await expect(note.getByRole("link", { name: "English" })).toBeVisible();
  // A visitor's chapter 5 is locked (coins): its English title, marked as English, above the lock.
  await expect(page.locator("h1[lang=en]")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath(`chapter-5-fr-${dark ? "dark" : "light"}.png`) });
});
