import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * The author's notes (ADR 95): the author writes a note before and after a chapter in the editor; a reader
 * who may read the chapter sees them marked "Author's note", folded, then in full once they choose so. Each
 * project writes on a chapter of its own (desktop 6, phone 7), which no other test opens.
 */
test("the author writes notes; a reader sees them folded, then in full after switching the setting", async ({
  page,
  browser,
}, testInfo) => {
  test.slow();
  const number = testInfo.project.name === "phone" ? 7 : 6;
  const stamp = `${testInfo.project.name}-${Date.now()}`;
  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin/chapters");
  await page
    .getByTestId("admin-chapter")
    .filter({ has: page.getByRole("cell", { name: String(number), exact: true }) })
    .getByRole("link")
    .click();
  await expect(page.getByRole("heading", { level: 1, name: `Edit chapter ${number}` })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Author's note before the chapter").fill(`Before ${stamp}: thank you for *reading*.`);
  await page.getByLabel("Author's note after the chapter").fill(`After ${stamp}: see you next week.`);
  await page.screenshot({ path: testInfo.outputPath("admin-notes.png"), fullPage: true });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(/Saved as version \d+\./)).toBeVisible();

  // A reader: the locked view shows no note; unlocked, both notes are there, folded.
  const context = await browser.newContext();
  const reader = await context.newPage();
  await register(reader);
  await reader.goto(`/chapter/${number}`);
  await expect(reader.getByRole("button", { name: "Unlock for 1 coin" })).toBeVisible();
  await expect(reader.getByText("Author's note")).toHaveCount(0);
  await reader.getByRole("button", { name: "Unlock for 1 coin" }).click();
  await expect(reader.locator("[data-chapter-body] > *").first()).toBeVisible();
  await hydrated(reader);
  const notes = reader.locator("details.author-note");
  await expect(notes).toHaveCount(2);
  await expect(notes.first().locator("summary")).toHaveText("Author's note");
  await expect(notes.first()).not.toHaveAttribute("open");
  await expect(reader.getByText(`Before ${stamp}`)).toBeHidden();
  await reader.screenshot({ path: testInfo.outputPath("chapter-notes-folded.png") });
  // A note opens from its summary, by keyboard as by pointer.
  await notes.first().locator("summary").focus();
  await reader.keyboard.press("Enter");
  await expect(reader.getByText(`Before ${stamp}`)).toBeVisible();
  await expect(reader.locator("details.author-note em", { hasText: "reading" })).toBeVisible();

  // "In full" in the reading settings opens both, and stays so on the next visit (server-rendered).
  await reader.getByRole("button", { name: "Settings" }).click();
  const sheet = reader.getByRole("dialog");
  await sheet.getByText("In full", { exact: true }).click();
  await reader.keyboard.press("Escape");
  await expect(reader.getByText(`After ${stamp}`)).toBeVisible();
  await reader.waitForTimeout(500);
  await reader.reload();
  await expect(reader.locator("details.author-note[open]")).toHaveCount(2);
  await expect(reader.getByText(`Before ${stamp}`)).toBeVisible();
  await expect(reader.getByText(`After ${stamp}`)).toBeVisible();
  await reader.screenshot({ path: testInfo.outputPath("chapter-notes-full.png"), fullPage: true });
  await context.close();
});
