import fs from "node:fs";
import type { Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import fr from "../../app/i18n/locales/fr.json" with { type: "json" };
import { register } from "../support/browser";
import { expect as baseExpect, hydrated, test } from "../support/fixtures";

// Registration, two payment steps and several pages on a machine that may be busy: a ceiling for each wait.
const expect = baseExpect.configure({ timeout: 15_000 });

const f = en.fundraiser;
const s = en.subscriptions;
const p = en.payments;

const tierCard = (page: Page, key: string) => page.getByTestId(`tier-${key}`);

test("a subscriber's tier reads as theirs on /fundraiser, the others offer a change of tier", async ({
  page,
}, testInfo) => {
  await register(page);

  // Join Observer from its card and pay on the test provider.
  await page.goto("/fundraiser");
  await hydrated(page);
  await tierCard(page, "observer")
    .getByRole("button", { name: f.join.replace("{{tier}}", "Observer") })
    .click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await page.getByRole("button", { name: p.test.approve }).click();
  await expect(page).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);

  // Back on the fundraiser: no "Join as …" anywhere; Observer is theirs, with its renewal and a way to manage it.
  await page.goto("/fundraiser");
  await hydrated(page);
  await expect(page.getByRole("button", { name: /^Join as / })).toHaveCount(0);
  const observer = tierCard(page, "observer");
  await expect(observer).toHaveAttribute("aria-current", "true");
  await expect(observer.getByText(f.yourTier, { exact: true })).toBeVisible();
  await expect(observer.getByTestId("own-tier")).toContainText(s.renews.split("{{")[0] ?? "");
  await expect(observer.getByRole("link", { name: f.manage })).toHaveAttribute(
    "href",
    "/account/subscription",
  );
  await expect(
    tierCard(page, "analyst").getByRole("button", { name: f.upgrade.replace("{{tier}}", "Analyst") }),
  ).toBeVisible();
  await expect(
    tierCard(page, "first_human").getByRole("button", { name: f.upgrade.replace("{{tier}}", "First Human") }),
  ).toBeVisible();
  await observer.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("fundraiser-subscriber.png"), fullPage: true });

  // Upgrade to Analyst from its card: the account's change of tier answers, and the cards follow.
  await tierCard(page, "analyst")
    .getByRole("button", { name: f.upgrade.replace("{{tier}}", "Analyst") })
    .click();
  await expect(page).toHaveURL(/\/account\/subscription\?done=upgrade$/);
  await expect(page.getByRole("status")).toHaveText(s.done.upgrade);
  await expect(page.getByTestId("subscription-tier")).toHaveText("Analyst");

  await page.goto("/fundraiser");
  await expect(tierCard(page, "analyst").getByText(f.yourTier, { exact: true })).toBeVisible();
  await expect(tierCard(page, "observer")).not.toHaveAttribute("aria-current", "true");
  await expect(
    tierCard(page, "observer").getByRole("button", { name: f.downgrade.replace("{{tier}}", "Observer") }),
  ).toBeVisible();

  // The manage link leads to the cancel step of the account's subscription page.
  await tierCard(page, "analyst").getByRole("link", { name: f.manage }).click();
  await expect(page).toHaveURL(/\/account\/subscription$/);
  await expect(page.getByRole("link", { name: s.cancel.open })).toBeVisible();
});

test("the account's overview shows the site's community invite when Discord sign-in is not configured", async ({
  page,
}) => {
  await register(page);
  await page.goto("/account");
  const overview = page.getByRole("region", { name: en.account.overview });
  // The site settings the server imported (content/site.md); the browser tests' server has no Discord sign-in.
  const site = fs.readFileSync("content/site.md", "utf8");
  const setting = (name: string) => new RegExp(`^${name}: "(.+)"$`, "m").exec(site)?.[1] ?? "";
  const invite = overview.getByRole("link", { name: setting("communityLabel"), exact: true });
  await expect(invite).toHaveAttribute("href", setting("communityUrl"));
  await expect(page.getByTestId("discord-username")).toHaveCount(0);
});

test("in French a tier has one name: the tier cards, their buttons and the supporters filter", async ({
  page,
  prefer,
}) => {
  await prefer({ lang: "fr" });
  await page.goto("/fundraiser");
  const observer = tierCard(page, "observer");
  await expect(observer.getByRole("heading", { level: 3 })).toHaveText(fr.tiers.observer);
  await expect(
    observer.getByRole("button", { name: fr.fundraiser.join.replace("{{tier}}", fr.tiers.observer) }),
  ).toBeVisible();
  // The perks and pitches are the author's content, in the author's language; the names are the interface's.
  const english = /\b(Observer|Analyst|First Human)\b/;
  await expect(page.getByRole("button", { name: english })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: english })).toHaveCount(0);
  await page.goto("/fundraiser/supporters");
  await expect(page.getByRole("link", { name: fr.tiers.observer, exact: true })).toBeVisible();
});
