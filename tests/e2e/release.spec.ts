import { type Browser, devices, type Page } from "@playwright/test";
import { grantAuthor, joinFirstHuman, register, uploadPng } from "../support/browser";
import { expect as baseExpect, hydrated, test } from "../support/fixtures";

// Four readers, two payment pages and the admin on a machine that may be busy: a ceiling for each wait.
const expect = baseExpect.configure({ timeout: 15_000 });

// Both tests move the test clock, which every page reads: one after the other.
test.describe.configure({ mode: "default" });

/** A wall-clock minute as a datetime-local input takes it, in this machine's zone (the browser's too). */
const localMinute = (at: Date) =>
  new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

async function newReader(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await register(page);
  return page;
}

/**
 * The release minute, end to end: an author writes chapter 12 with an uploaded PNG,
 * price 1 coin, scheduled for tomorrow; a visitor sees it locked with its date, a First Human member reads it
 * now, and when the test clock passes the release time (/admin/clock, ADR 39) a reader unlocks it with a
 * coin. Its own project, after every other: the chapter and the clock change what all pages show.
 */
test("chapter 12, scheduled for tomorrow: locked to a visitor, read ahead by a member, unlocked with a coin once the clock passes", async ({
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
  await expect(page.getByRole("heading", { level: 1, name: "Edit chapter 12" })).toBeVisible();

  // A visitor: /toc shows chapter 12 (after the demo draft, 11) with its release date; the chapter is locked until then.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto("/toc");
  const row = visitor.getByRole("listitem").filter({ hasText: "The Bell at Midnight" });
  await expect(row).toContainText("Chapter 12");
  await expect(row).toContainText("Releases");
  await visitor.goto("/chapter/12");
  await expect(visitor.getByText(/This chapter will be released on/)).toBeVisible();
  await expect(visitor.getByText("appointed minute")).toHaveCount(0);

  // A First Human member (joined on the test provider) reads it now, its picture re-encoded with its size.
  const member = await newReader(browser);
  await joinFirstHuman(member);
  await member.goto("/chapter/12");
  await expect(member.getByText("The bell rang once, at the appointed minute.")).toBeVisible();
  const image = member.locator("figure picture img");
  await expect(image).toHaveAttribute("width", "900");
  await expect(image).toHaveAttribute("height", "500");
  await expect(member.locator('figure picture source[type="image/webp"]')).toHaveCount(1);

  // A reader with coins waits for the release.
  const reader = await newReader(browser);
  await reader.goto("/chapter/12");
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

/** The time of day `at` in `timeZone`, as the table of contents writes it in English. */
const timeIn = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en", { timeStyle: "short", timeZone }).format(at);

/**
 * Chapter 10 (the demo's next chapter), four minutes before its release: the table of contents gives the time
 * in each reader's zone and counts down (a desktop reader in New York, a 360 px phone in Tokyo); without
 * JavaScript the words alone read right. When the countdown ends it says the chapter is out, with a link.
 * The browsers' clocks are set to the server's test clock (ADR 39), which only moves the server's.
 */
test("chapter 10, four minutes before its release: its time in the reader's zone and a countdown on /toc", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const author = await register(page);
  await grantAuthor(author.email);

  // A visitor without JavaScript (no time zone cookie: UTC) sees chapter 10 days away: its date.
  const plain = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await plain.goto("/toc");
  const plainRow = plain.getByRole("listitem").filter({ hasText: "Stronger Than Fate" });
  await expect(plainRow).toContainText(/Releases [A-Z][a-z]{2} \d{1,2}/);
  const datetime = await plainRow.locator("time").getAttribute("datetime");
  const release = new Date(datetime ?? "");
  expect(release.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
  const fourMinutesBefore = new Date(release.getTime() - 4 * 60_000);

  const readers = [
    { name: "desktop", timeZone: "America/New_York", options: { viewport: { width: 1280, height: 800 } } },
    {
      name: "phone",
      timeZone: "Asia/Tokyo",
      options: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 } },
    },
  ];
  const pages = await Promise.all(
    readers.map(async ({ timeZone, options }) => {
      const reader = await (await browser.newContext({ ...options, timezoneId: timeZone })).newPage();
      await reader.clock.install({ time: fourMinutesBefore });
      // The first page shown remembers the reader's zone (the tz cookie) for the server's dates.
      await reader.goto("/about");
      await expect
        .poll(async () => (await reader.context().cookies()).some((cookie) => cookie.name === "tz"))
        .toBe(true);
      return reader;
    }),
  );

  await page.goto("/admin/clock");
  await hydrated(page);
  await page.getByLabel("Set the release time to").fill(localMinute(fourMinutesBefore));
  await page.getByRole("button", { name: "Move the clock" }).click();
  await expect(page.getByText("The release time has moved.")).toBeVisible();

  try {
    await plain.reload();
    await expect(plainRow).toContainText(`Releases tomorrow at ${timeIn(release, "UTC")}`);
    await expect(plainRow.locator(`time[datetime="${release.toISOString()}"]`)).toBeVisible();
    await expect(plainRow.locator("[data-countdown]")).toHaveCount(0);

    for (const [index, reader] of pages.entries()) {
      const { name, timeZone } = readers[index] as (typeof readers)[number];
      await reader.goto("/toc");
      await hydrated(reader);
      const row = reader.getByRole("listitem").filter({ hasText: "Stronger Than Fate" });
      await expect(row).toContainText(`Releases today at ${timeIn(release, timeZone)}`);
      await expect(row.locator("[data-countdown]")).toHaveText("in 4 minutes");
      await row.scrollIntoViewIfNeeded();
      await reader.screenshot({ path: testInfo.outputPath(`countdown-${name}.png`) });
    }

    // The release minute passes on the server; the readers' countdowns reach it.
    await page.goto("/admin/clock");
    await hydrated(page);
    await page.getByLabel("Set the release time to").fill(localMinute(new Date(release.getTime() + 60_000)));
    await page.getByRole("button", { name: "Move the clock" }).click();
    await expect(page.getByText("The release time has moved.")).toBeVisible();
    for (const [index, reader] of pages.entries()) {
      const { name } = readers[index] as (typeof readers)[number];
      await reader.clock.fastForward("04:01");
      const row = reader.getByRole("listitem").filter({ hasText: "Stronger Than Fate" });
      await expect(row.locator("[data-countdown]")).toHaveCount(0);
      await expect(row).not.toContainText("Releases");
      await reader.screenshot({ path: testInfo.outputPath(`out-${name}.png`) });
      await row.getByRole("link", { name: "Out now: read it" }).click();
      await expect(reader).toHaveURL(/\/chapter\/10$/);
      await expect(reader.getByText(/This chapter will be released on/)).toHaveCount(0);
    }
  } finally {
    await page.goto("/admin/clock");
    await hydrated(page);
    await page.getByRole("button", { name: "Back to the real time" }).click();
    await expect(page.getByText("The release time is the real time again.")).toBeVisible();
  }
});
