import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";
import { mailsTo, waitForMail } from "../support/mail";

const dataDir = process.env.E2E_DATA_DIR ?? "";

/**
 * The author's notes (ADR 95): the author writes a note before and after a chapter in the editor; a reader
 * who may read the chapter sees them marked "Author's note", folded, then in full once they choose so. The
 * chapter's Spanish translation has its own note before and none after (ADR 100): a reader of /es/chapter/N
 * sees the Spanish note, and the original's other note marked English. Each project writes on a chapter of
 * its own (desktop 6, phone 7), which no other test opens.
 */
test("the author writes notes and an announcement; a reader sees the notes folded, then in full, and the news", async ({
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

  // Its Spanish translation, with a note of its own before the text and none after.
  const editor = new URL(page.url()).pathname;
  await page.goto(`${editor}/translations/es`);
  await expect(page.getByRole("heading", { level: 1, name: `Chapter ${number} in Español` })).toBeVisible();
  await hydrated(page);
  await expect(page.getByTestId("original-note-before")).toHaveText(
    `Before ${stamp}: thank you for *reading*.`,
  );
  await page.getByLabel("Title").fill(`Capítulo ${stamp}`);
  await expect(page.locator(".cm-editor")).toBeVisible();
  await page.getByRole("textbox", { name: "Text (Markdown)" }).click();
  await page.keyboard.insertText("El texto en español.");
  await expect(page.locator('textarea[name="bodyMd"]')).toHaveValue("El texto en español.");
  await page.getByLabel("Author's note before the chapter", { exact: true }).fill(`Antes ${stamp}: hola.`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(/^Saved as version 1\.$/)).toBeVisible();
  // The note rewritten: the history marks the change, and the comparison shows it under its own heading.
  await hydrated(page);
  await page
    .getByLabel("Author's note before the chapter", { exact: true })
    .fill(`Antes ${stamp}: gracias por *leer*.`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(/^Saved as version 2\.$/)).toBeVisible();
  await expect(page.getByTestId("revisions").getByTestId("notes-changed")).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath("translation-notes.png"), fullPage: true });
  await page.getByTestId("revisions").getByRole("link", { name: "Compare" }).click();
  const noteDiff = page.getByTestId("diff-note-before");
  await expect(noteDiff.locator("del")).toHaveText(`Antes ${stamp}: hola.`);
  await expect(noteDiff.locator("ins")).toHaveText(`Antes ${stamp}: gracias por *leer*.`);
  await noteDiff.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("translation-notes-diff.png") });

  // A reader: the locked view shows no note; unlocked, both notes are there, folded.
  const context = await browser.newContext();
  const reader = await context.newPage();
  const readerAccount = await register(reader);
  // The reader asks for the author's news by e-mail.
  await reader.goto("/settings");
  await hydrated(reader);
  await reader.getByLabel("E-mail me the author's news").check();
  await reader.getByRole("button", { name: "Save e-mail choices" }).click();
  await expect(reader.getByText("Your e-mail choices are saved.")).toBeVisible();
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
  // The choice is saved to the account (a POST the sheet sends); the reload waits for its answer.
  const saved = reader.waitForResponse(
    (response) => response.url().endsWith("/reader/settings") && response.request().method() === "POST",
  );
  await sheet.getByText("In full", { exact: true }).click();
  expect((await saved).ok()).toBe(true);
  await reader.keyboard.press("Escape");
  await expect(reader.getByText(`After ${stamp}`)).toBeVisible();
  await reader.reload();
  await expect(reader.locator("details.author-note[open]")).toHaveCount(2);
  await expect(reader.getByText(`Before ${stamp}`)).toBeVisible();
  await expect(reader.getByText(`After ${stamp}`)).toBeVisible();
  await reader.screenshot({ path: testInfo.outputPath("chapter-notes-open.png") });
  await reader.screenshot({ path: testInfo.outputPath("chapter-notes-full.png"), fullPage: true });

  // In Spanish: the translation's note before, and the original's after, marked English.
  await reader.goto(`/es/chapter/${number}`);
  await expect(reader.locator("[data-chapter-body]")).toContainText("El texto en español.");
  const spanish = reader.locator("details.author-note");
  await expect(spanish).toHaveCount(2);
  const before = spanish.and(reader.locator('[data-place="before"]')).locator(".author-note-text");
  await expect(before).toContainText(`Antes ${stamp}: gracias por`);
  await expect(before.locator("em")).toHaveText("leer");
  await expect(before).not.toHaveAttribute("lang");
  const after = spanish.and(reader.locator('[data-place="after"]')).locator(".author-note-text");
  await expect(after).toContainText(`After ${stamp}: see you next week.`);
  await expect(after).toHaveAttribute("lang", "en");
  await reader.screenshot({ path: testInfo.outputPath("chapter-notes-es.png"), fullPage: true });

  // The author publishes an announcement: the home page shows it, and the reader who asked gets it once.
  const title = `News ${stamp}`;
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link", { name: "Announcements" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Announcements" })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Text (Markdown)").fill("Volume two begins **next week**.");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText(/^Published\./)).toBeVisible();
  await expect(page.getByTestId("admin-announcements")).toContainText(title);
  await page.screenshot({ path: testInfo.outputPath("admin-announcements.png"), fullPage: true });

  await reader.goto("/");
  const news = reader.getByTestId("announcement").filter({ hasText: title });
  await expect(news).toBeVisible();
  await expect(news.locator("strong")).toHaveText("next week");
  await news.scrollIntoViewIfNeeded();
  await reader.screenshot({ path: testInfo.outputPath("home-news.png") });
  const mail = await waitForMail(dataDir, readerAccount.email, { containing: title, timeout: 50_000 });
  expect(mail).toContain("/unsubscribe/");
  expect(mailsTo(dataDir, readerAccount.email).filter((text) => text.includes(title))).toHaveLength(1);
  await context.close();
});
