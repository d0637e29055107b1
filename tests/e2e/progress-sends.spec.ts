import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * The chapter page's progress sends (ADR 67), on the page's own clock: a signed-in reader reading for a minute
 * sends at most every 15 s (four sends, not sixty), and once more on leaving the chapter; what the account
 * keeps is the page's last record.
 */
test("a signed-in reader's page sends progress every 15 s while reading and once on leaving", async ({
  page,
}) => {
  await register(page);
  await page.clock.install();
  await page.goto("/chapter/1");
  await hydrated(page);
  const sends: { chapter: number; readingTime: number; paragraph: number }[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/reader/progress") && request.method() === "POST") {
      const [entry] = JSON.parse(request.postData() ?? "{}").entries;
      sends.push({ chapter: entry.chapter, ...entry.progress });
    }
  });
  // A minute of reading: active (a key now and then), a little scrolling.
  for (let second = 0; second < 60; second += 5) {
    await page.keyboard.press("ArrowDown");
    await page.clock.runFor(5_000);
  }
  await expect.poll(() => sends.length).toBe(4);
  expect(sends.map((sent) => sent.readingTime)).toEqual([15, 30, 45, 60].map((s) => expect.closeTo(s, 2)));
  // Seven seconds more, then leaving the chapter (a client navigation): the rest is sent at once.
  await page.keyboard.press("ArrowDown");
  await page.clock.runFor(7_000);
  expect(sends).toHaveLength(4);
  // From the keyboard: on a phone the bars slid away while reading down, and the keyboard reaches them.
  await page.getByRole("link", { name: "Next chapter" }).first().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/chapter\/2$/);
  await expect.poll(() => sends.length).toBe(5);
  expect(sends.map((sent) => sent.chapter)).toEqual([1, 1, 1, 1, 1]);
  const answer = await page.request.get("/reader/progress?chapter=1");
  const { progress } = (await answer.json()) as { progress: { paragraph: number } };
  expect(progress.paragraph).toBe(sends.at(-1)?.paragraph);
});
