import type { Page } from "@playwright/test";
import { moveReadingOn, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/** Whether the offline worker keeps this address (its caches, read in the page). */
const kept = (page: Page, path: string) =>
  page.evaluate(async (path) => Boolean(await caches.match(path)), path);

/**
 * Offline reading (ADR 96): chapters 1 and 2 opened, the network gone, chapter 2 reloads and reads; the
 * reading done offline reaches the account once the network is back, and a send repeated counts nothing more.
 * Signing out empties the worker's caches. The page's time is Playwright's clock and the server's reading time for
 * this reader is moved on (ADR 105): the 36 s of reading take no 36 s of the test.
 */
test("a chapter opened reads offline, and its reading arrives once when the network is back", async ({
  page,
  context,
  browser,
}) => {
  await page.clock.install();
  const reader = await register(page);
  await page.goto("/chapter/1");
  await hydrated(page);
  // The worker registers after load and takes the page over; it then keeps chapter 1 and the next one.
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
    timeout: 20_000,
  });
  await page.goto("/chapter/2");
  await hydrated(page);
  await expect.poll(() => kept(page, "/chapter/1"), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => kept(page, "/chapter/2"), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => kept(page, "/chapter/3"), { timeout: 15_000 }).toBe(true);
  // Never a page that is not a chapter's.
  expect(await kept(page, "/welcome")).toBe(false);

  // The first send of chapter 2 starts the server's count (it counts from its own clock, ADR 58).
  const sent: { status: number; body: string }[] = [];
  page.on("requestfinished", async (request) => {
    if (request.url().endsWith("/reader/progress") && request.method() === "POST")
      sent.push({ status: (await request.response())?.status() ?? 0, body: request.postData() ?? "" });
  });
  // The page counts a second of reading each second of its clock while the reader is active (ADR 58).
  const keepReading = async (seconds: number) => {
    await page.mouse.wheel(0, 40);
    await page.clock.runFor(seconds * 1000);
  };
  await keepReading(16);
  await expect.poll(() => sent.length, { timeout: 10_000 }).toBeGreaterThan(0);
  // The server counts no more reading than its clock saw pass since that first send: for this reader, its clock
  // moves on by more than the page will read.
  await moveReadingOn(browser, reader.email, 60);

  await context.setOffline(true);
  await page.reload();
  const text = page.locator("article p").first();
  await expect(text).toBeVisible();
  await expect(text).not.toBeEmpty();
  await hydrated(page);
  await page.screenshot({ path: `test-results/offline-chapter-${test.info().project.name}.png` });
  const before = sent.length;
  await keepReading(20);
  expect(sent.length).toBe(before);
  const offlineRecord = await page.evaluate(
    () => JSON.parse(localStorage.getItem("reading") ?? "{}").chapters?.["2"]?.readingTime as number,
  );
  expect(offlineRecord).toBeGreaterThanOrEqual(30);

  // The page's clock stands still while the network comes back: no 15 s tick can send meanwhile, so the one
  // send that follows is the one the network's return made.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
  await context.setOffline(false);
  await expect.poll(() => sent.length, { timeout: 5_000 }).toBe(before + 1);
  expect(sent.at(-1)?.status).toBe(200);
  await page.clock.resume();
  const counted = async () => {
    const answer = await page.request.get("/reader/progress?chapter=2");
    return ((await answer.json()) as { progress: { readingTime: number } }).progress.readingTime;
  };
  // All of the record, the 20 s read offline with it, and no more than the page counted.
  const afterOnline = await counted();
  expect(afterOnline).toBeGreaterThanOrEqual(18);
  expect(afterOnline).toBeLessThanOrEqual(offlineRecord + 2);

  // However often the record is sent again (a retry), the account counts no more than the reader read: the
  // server counted the whole record, so more sends of it add nothing.
  await page.goto("/account");
  await hydrated(page);
  const record = await page.evaluate(
    () => JSON.parse(localStorage.getItem("reading") ?? "{}").chapters?.["2"],
  );
  const resend = async () => {
    const answer = await page.request.post("/reader/progress", {
      data: { entries: [{ chapter: 2, progress: record }] },
    });
    expect(answer.status()).toBe(200);
    return counted();
  };
  expect(await resend()).toBe(record.readingTime);
  expect(await resend()).toBe(record.readingTime);
  expect(await resend()).toBe(record.readingTime);

  // Signing out forgets what the worker kept.
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).not.toHaveURL(/\/account$/);
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBe(0);
});
