import { expect, test } from "../support/fixtures";

// ADR 97: a translated list shows an item without a translation in English, and says so in its `lang` (the
// demo translates chapters 1-3 into Spanish; chapter 4 on are English titles on the Spanish table).
test("a Spanish table of contents marks its untranslated chapter titles as English, and only those", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name.includes("phone"), "the server's HTML is the same on every screen");
  // The page as the server wrote it: no script runs.
  await page.route("**/assets/*.js", (route) => route.fulfill({ contentType: "text/javascript", body: "" }));
  await page.goto("/es/toc");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  const title = (number: number) => page.locator(`#chapter-${number}`).locator("span.text-lg");
  for (const number of [1, 2, 3]) await expect(title(number)).not.toHaveAttribute("lang", /.*/);
  await expect(title(1)).toHaveText("El Libro del Diezmo");
  await expect(title(4)).toHaveText("Curfew Bells");
  const untranslated = await page.locator("[id^=chapter-]").count();
  expect(untranslated).toBeGreaterThan(4);
  // Chapters 6 and 7 get a Spanish translation from the author's notes spec (tests/e2e/author-notes.spec.ts),
  // which may run first: every other chapter from 4 on is English.
  for (let number = 4; number <= untranslated; number++)
    if (number !== 6 && number !== 7) await expect(title(number)).toHaveAttribute("lang", "en");
  // The home page's latest chapter, untranslated: its title alone is English in the Spanish sentence.
  await page.goto("/es");
  const latest = page.locator("#latest a").first().locator("span[lang=en]");
  await expect(latest).toHaveCount(1);
  await expect(page.locator("#latest a").first()).toContainText("Capítulo");
  // The English table marks nothing.
  await page.goto("/en/toc");
  await expect(page.locator("#main [lang]")).toHaveCount(0);
});
