import { confirmEmail, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * Chapter comments in the browser (ADR 47): two readers comment and reply under chapter 1, a visitor reads
 * both (with scripts, under the chapter; without, on the comments' own page), and a locked chapter's comments
 * stay locked. Each run writes text of its own, so the desktop and phone runs do not meet.
 */
test("two readers comment and reply on chapter 1; a visitor sees both; chapter 4's comments are locked", async ({
  page,
  browser,
}, testInfo) => {
  test.slow();
  const run = `${testInfo.project.name}-${Date.now().toString(36)}`;
  // Commenting asks for a confirmed e-mail address (ADR 56).
  await confirmEmail(page, await register(page));
  await page.goto("/chapter/1");
  await hydrated(page);
  const comments = page.getByRole("region", { name: "Comments" });
  await comments.scrollIntoViewIfNeeded();
  const box = comments.getByLabel("Your comment");
  await expect(box).toBeVisible();
  // The comment is written and sent with the keyboard alone.
  await box.focus();
  await page.keyboard.insertText(`The bell scene *again* ${run}`);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  const first = comments.getByRole("article").filter({ hasText: `The bell scene again ${run}` });
  await expect(first).toBeVisible();
  await expect(first.locator("em")).toHaveText("again");
  await expect(box).toHaveValue("");

  const second = await browser.newContext();
  const other = await second.newPage();
  await confirmEmail(other, await register(other));
  await other.goto("/chapter/1#comments");
  await hydrated(other);
  const theirs = other.getByRole("article").filter({ hasText: `The bell scene again ${run}` });
  await theirs.getByText("Reply", { exact: true }).click();
  await theirs.getByLabel("Your reply").fill(`Agreed ${run}`);
  await theirs.getByLabel("Contains spoilers (folded until opened)").check();
  await theirs.getByRole("button", { name: "Post reply" }).click();
  const reply = theirs.getByRole("article").filter({ hasText: "Spoiler: show the comment" });
  await expect(reply).toBeVisible();
  // Hearted once, counted once.
  await theirs
    .getByRole("button", { name: /Heart this comment, 0 hearts/ })
    .first()
    .click();
  await expect(theirs.getByRole("button", { name: /Heart this comment, 1 heart/ }).first()).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await page.screenshot({ path: testInfo.outputPath("comments-reader.png"), fullPage: false });
  await second.close();

  // A visitor, with scripts: under the chapter, the spoiler folded until opened.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto("/chapter/1");
  await hydrated(visitor);
  const section = visitor.getByRole("region", { name: "Comments" });
  await section.scrollIntoViewIfNeeded();
  const thread = section.getByRole("article").filter({ hasText: `The bell scene again ${run}` });
  await expect(thread).toBeVisible();
  await expect(thread.getByText(`Agreed ${run}`)).toBeHidden();
  await thread.getByText("Spoiler: show the comment").click();
  await expect(thread.getByText(`Agreed ${run}`)).toBeVisible();
  await expect(section.getByRole("link", { name: "Sign in to comment" })).toBeVisible();
  await visitor.screenshot({ path: testInfo.outputPath("comments-visitor.png"), fullPage: false });
  await visitorContext.close();

  // Without scripts: the chapter links to the comments' own page, rendered by the server.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const noScript = await plain.newPage();
  await noScript.goto("/chapter/1");
  await noScript.getByRole("link", { name: "Read the comments" }).click();
  await expect(noScript).toHaveURL(/\/chapter\/1\/comments$/);
  await expect(noScript.getByText(`The bell scene again ${run}`)).toBeVisible();
  await expect(noScript.getByText(/^\d+ comments?$/)).toBeVisible();

  // Chapter 4 is paid: its comments are locked to this visitor and to a reader who has not unlocked it.
  const locked = await noScript.goto("/chapter/4/comments");
  expect(locked?.status()).toBe(403);
  await expect(
    noScript.getByRole("heading", { name: "Unlock this chapter to read its comments" }),
  ).toBeVisible();
  await plain.close();
  const lockedForReader = await page.goto("/chapter/4/comments");
  expect(lockedForReader?.status()).toBe(403);
});
