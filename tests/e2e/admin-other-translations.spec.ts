import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const SUMMARY =
  "Una meticulosa analista subalterna del Archivo Sanguinario, incapaz de dejar en paz una cifra equivocada.";

/**
 * The author translates what is not a chapter (ADR 98): from the admin's list to a wiki page's Spanish beside
 * its original; a Spanish reader's wiki shows it at once. The demo's text is put back after.
 */
test("the author edits a wiki page's Spanish summary beside the original; /es/wiki shows it", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "edits the demo's wiki: walked once");
  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link", { name: "Translations" })
    .click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Translations of the site's content" }),
  ).toBeVisible();
  const row = page.getByTestId("translatable-wiki-characters/ilse-marrow");
  await expect(row.getByRole("link", { name: "Ilse Marrow: Español: Up to date" })).toContainText(
    "Up to date",
  );
  await hydrated(page);
  await page.screenshot({ path: testInfo.outputPath("list-desktop.png"), fullPage: true });
  await row.getByRole("link", { name: "Ilse Marrow: Español: Up to date" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Ilse Marrow in Español" })).toBeVisible();
  const summary = page.getByLabel("Summary");
  await expect(summary).toHaveValue(SUMMARY);
  await summary.fill("Archivera del Archivo Sanguinario; no deja en paz una cifra equivocada.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Translation saved.")).toBeVisible();
  await expect(page.getByTestId("translation-mark")).toHaveText("Up to date");
  await page.screenshot({ path: testInfo.outputPath("editor-desktop.png"), fullPage: true });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath("editor-360.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  const editor = page.url();

  await page.goto("/es/wiki/characters");
  await expect(
    page.getByText("Archivera del Archivo Sanguinario; no deja en paz una cifra equivocada."),
  ).toBeVisible();

  // A summary left empty is refused beside its field, the rest kept.
  await page.goto(editor);
  await hydrated(page);
  await summary.fill("");
  await page.getByLabel("Text (Markdown)").fill("Texto que no se pierde.");
  await summary.evaluate((input) => input.removeAttribute("required"));
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Fill this in (it is shown to readers).")).toBeVisible();
  await expect(page.getByLabel("Text (Markdown)")).toHaveValue("Texto que no se pierde.");

  // The demo's text again.
  await page.goto(editor);
  await hydrated(page);
  await summary.fill(SUMMARY);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Translation saved.")).toBeVisible();
});
