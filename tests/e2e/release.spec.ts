import type { Browser, Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, register, uploadPng } from "../support/browser";
import { expect as baseExpect, hydrated, test } from "../support/fixtures";

// Four readers, two payment pages and the admin on a machine that may be busy: a ceiling for each wait.
const expect = baseExpect.configure({ timeout: 15_000 });

/** A wall-clock minute as a datetime-local input takes it, in this machine's zone (the browser's too). */
const localMinute = (at: Date) =>
  new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

async function newReader(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await register(page);
  return page;
}

/**
 * The release minute, end to end (issue 19's acceptance): an author writes chapter 11 with an uploaded PNG,
 * price 1 coin, scheduled for tomorrow; a visitor sees it locked with its date, a First Human member reads it
 * now, and when the test clock passes the release time (/admin/clock, ADR 39) a reader unlocks it with a
 * coin. Its own project, after every other: the chapter and the clock change what all pages show.
 */
test("chapter 11, scheduled for tomorrow: locked to a visitor, read ahead by a member, unlocked with a coin once the clock passes", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const author = await register(page);
  await grantAuthor(author.email);

  await uploadPng(page, "bell.png", 900, 500);

  const release = new Date(Date.now() + 86_400_000);
  await page.goto("/admin/chapters/new");
  await hydrated(page);
  await page.getByLabel("Title").fill("The Bell at Midnight");
  await expect(page.locator(".cm-editor")).toBeVisible();
  const body = page.getByRole("textbox", { name: "Text (Markdown)" });
  await body.click();
  await page.keyboard.insertText("The bell rang once, at the appointed minute.");
  await page.getByLabel("Release", { exact: true }).fill(localMinute(release));
  await page.getByLabel("Price in coins (0: free)", { exact: true }).fill("1");
  await page.getByLabel("Published").check();
  await page.getByLabel("Image 1", { exact: true }).selectOption({ label: "bell.png (900×500)" });
  await page.getByLabel("Caption 1", { exact: true }).fill("The bell");
  await page.getByRole("button", { name: "Create chapter" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit chapter 11" })).toBeVisible();

  // A visitor: /toc shows chapter 11 with its release date; the chapter is locked until then.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto("/toc");
  const row = visitor.getByRole("listitem").filter({ hasText: "The Bell at Midnight" });
  await expect(row).toContainText("Chapter 11");
  await expect(row).toContainText("Releases");
  await visitor.goto("/chapter/11");
  await expect(visitor.getByText(/This chapter will be released on/)).toBeVisible();
  await expect(visitor.getByText("appointed minute")).toHaveCount(0);

  // A First Human member (joined on the test provider) reads it now, its picture re-encoded with its size.
  const member = await newReader(browser);
  await member.goto("/account");
  const panel = member.getByRole("region", { name: en.subscriptions.panelTitle });
  await hydrated(member);
  await panel.getByRole("radio", { name: /^First Human/ }).check();
  await panel.getByRole("button", { name: en.subscriptions.joinForm.submit }).click();
  await expect(member).toHaveURL(/\/pay\/test\/tps_/);
  await member.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(member).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);
  await member.goto("/chapter/11");
  await expect(member.getByText("The bell rang once, at the appointed minute.")).toBeVisible();
  const image = member.locator("figure picture img");
  await expect(image).toHaveAttribute("width", "900");
  await expect(image).toHaveAttribute("height", "500");
  await expect(member.locator('figure picture source[type="image/webp"]')).toHaveCount(1);

  // A reader with coins waits for the release.
  const reader = await newReader(browser);
  await reader.goto("/chapter/11");
  await expect(reader.getByText(/This chapter will be released on/)).toBeVisible();

  // The author moves the clock a minute past the release.
  await page.goto("/admin/clock");
  await hydrated(page);
  await page.getByLabel("Set the release time to").fill(localMinute(new Date(release.getTime() + 60_000)));
  await page.getByRole("button", { name: "Move the clock" }).click();
  await expect(page.getByText("The release time has moved.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("clock.png"), fullPage: true });

  try {
    // The same pages, now: the visitor's (kept until the release minute) is asked for a coin, not a date.
    await visitor.reload();
    await expect(visitor.getByText(/This chapter will be released on/)).toHaveCount(0);
    await reader.reload();
    await reader.getByRole("button", { name: "Unlock for 1 coin" }).click();
    await expect(reader.getByText("The bell rang once, at the appointed minute.")).toBeVisible();
    await visitor.goto("/toc");
    const released = visitor.getByRole("listitem").filter({ hasText: "The Bell at Midnight" });
    await expect(released).toContainText("1 coin");
    await expect(released).not.toContainText("Releases");
  } finally {
    await page.goto("/admin/clock");
    await hydrated(page);
    await page.getByRole("button", { name: "Back to the real time" }).click();
    await expect(page.getByText("The release time is the real time again.")).toBeVisible();
  }
});
