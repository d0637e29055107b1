import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, register, uploadPng } from "../support/browser";
import { expect as baseExpect, hydrated, test } from "../support/fixtures";

// Registration, uploads, two payment steps and several pages on a shared machine: a ceiling for each wait.
const expect = baseExpect.configure({ timeout: 15_000 });

const p = en.polls;
const s = en.subscriptions;

/**
 * Votes on art in the browser: the author opens a poll with two uploaded images; a free reader (the author
 * here) is refused with the link to join; a reader who subscribes to Analyst on the test provider votes, sees
 * the results, and changes the vote. Then /credits. Each project makes its own poll and images.
 */
test("an Analyst votes on art and changes the vote; a free reader is shown the way to join, a visitor to sign in", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const run = `${testInfo.project.name}-${Date.now().toString(36)}`;
  const question = `Which cover for the ${run} volume?`;

  // The author: two images, then the poll, open from now for a week (the form's defaults).
  const author = await register(page);
  await grantAuthor(author.email);
  await uploadPng(page, `slate-${run}.png`, 600, 600);
  await uploadPng(page, `copper-${run}.png`, 600, 600);
  await page.goto("/admin/polls/new");
  await hydrated(page);
  await page.getByLabel(en.admin.polls.question).fill(question);
  await page.getByLabel("Option 1: label").fill("Slate roofs");
  await page.getByLabel("Option 1: image").selectOption({ label: `slate-${run}.png (600×600)` });
  await page.getByLabel("Option 2: label").fill("Copper domes");
  await page.getByRole("button", { name: en.admin.polls.create }).click();
  // The second option's image is missing: said beside it, what was typed kept.
  await expect(page.getByText(en.admin.polls.errors.image)).toBeVisible();
  await expect(page.getByLabel("Option 2: label")).toHaveValue("Copper domes");
  await page.getByLabel("Option 2: image").selectOption({ label: `copper-${run}.png (600×600)` });
  await page.getByRole("button", { name: en.admin.polls.create }).click();
  await expect(page.getByText(en.admin.site.saved)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("admin-poll.png"), fullPage: true });

  // The author holds no tier: the poll's options, and the way to join instead of a ballot.
  await page.goto("/polls");
  const seen = page.getByRole("region", { name: question });
  await expect(seen.getByText(p.errors.tier)).toBeVisible();
  await expect(seen.getByRole("link", { name: p.join })).toHaveAttribute("href", "/fundraiser");
  await expect(seen.getByRole("radio")).toHaveCount(0);

  // A visitor is asked to sign in.
  const visitor = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto("/polls");
  await expect(
    visitorPage.getByRole("region", { name: question }).getByRole("link", { name: p.signIn }),
  ).toBeVisible();
  await visitor.close();

  // A reader subscribes to Analyst on the test provider.
  const readerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const reader = await readerContext.newPage();
  await register(reader);
  await reader.goto("/account");
  await hydrated(reader);
  const panel = reader.getByRole("region", { name: s.panelTitle });
  await panel.getByRole("radio", { name: /^Analyst/ }).check();
  await panel.getByRole("button", { name: s.joinForm.submit }).click();
  await expect(reader).toHaveURL(/\/pay\/test\/tps_/);
  await reader.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(reader).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);

  // The ballot: no results before voting; a vote shows them, the vote marked.
  await reader.goto("/polls");
  await hydrated(reader);
  const poll = reader.getByRole("region", { name: question });
  await expect(poll.getByRole("list", { name: p.results })).toHaveCount(0);
  await poll.getByRole("radio", { name: /Slate roofs/ }).check();
  await poll.getByRole("button", { name: p.vote, exact: true }).click();
  const results = poll.getByRole("list", { name: p.results });
  await expect(results).toBeVisible();
  await expect(results.getByRole("listitem").filter({ hasText: "Slate roofs" })).toContainText(
    "100% · 1 vote",
  );
  await expect(results.getByRole("listitem").filter({ hasText: "Slate roofs" })).toContainText(p.yourVote);
  await expect(poll.getByText("1 vote in all")).toBeVisible();

  // A change of mind, with the keyboard: still one vote, now the other option's.
  await poll.getByRole("radio", { name: /Copper domes/ }).focus();
  await reader.keyboard.press("Space");
  await poll.getByRole("button", { name: p.changeVote }).click();
  await expect(results.getByRole("listitem").filter({ hasText: "Copper domes" })).toContainText(
    "100% · 1 vote",
  );
  await expect(results.getByRole("listitem").filter({ hasText: "Slate roofs" })).toContainText(
    "0% · 0 votes",
  );
  await expect(poll.getByText("1 vote in all")).toBeVisible();
  await reader.screenshot({ path: testInfo.outputPath("polls.png"), fullPage: true });

  await readerContext.close();
});

test("a First Human who chose a display name is named on /credits, beside the author's acknowledgements", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const name = `Lantern Keeper ${testInfo.project.name}-${Date.now().toString(36)}`;
  const f = en.fundraiser;
  const c = en.supporters.choice;

  // The author's words, from the admin.
  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin/credits");
  await hydrated(page);
  await page
    .getByLabel(en.admin.credits.acknowledgements)
    .fill("With thanks to **the beta readers** of the Night Archive, and to everyone who sent a map.");
  await page.getByRole("button", { name: en.admin.credits.save }).click();
  await expect(page.getByText(en.admin.site.saved)).toBeVisible();

  // A reader joins First Human under a display name.
  const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const reader = await context.newPage();
  await register(reader);
  await reader.goto("/fundraiser");
  await hydrated(reader);
  const card = reader
    .getByRole("listitem")
    .filter({ has: reader.getByRole("heading", { name: "First Human" }) });
  await card.getByText(c.summary).click();
  await card.getByLabel(c.displays.name).check();
  await card.getByLabel(c.displayName, { exact: true }).fill(name);
  await card.getByRole("button", { name: f.join.replace("{{tier}}", "First Human") }).click();
  await expect(reader).toHaveURL(/\/pay\/test\/tps_/);
  await reader.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(reader).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);
  await context.close();

  // A visitor's /credits: the name, the words.
  await page.goto("/credits");
  await expect(page.getByRole("heading", { level: 1, name: en.credits.heading })).toBeVisible();
  await expect(page.getByTestId("credits-names").getByText(name, { exact: true })).toBeVisible();
  const words = page.getByRole("region", { name: en.credits.acknowledgements });
  await expect(words.locator("strong")).toHaveText("the beta readers");
  await page.screenshot({ path: testInfo.outputPath("credits.png"), fullPage: true });
});
