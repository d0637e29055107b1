import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page, TestInfo } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import routes from "../../app/routes";
import { confirmEmail, grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * Every page of app/routes.ts, walked as a visitor, a reader and the author, in the light and the dark theme
 * (the dark on the desktop only; on the phone, the author's walk checks the admin's pages): no element id may
 * be used twice (a label would focus another form's field), and axe-core may find nothing
 * serious or critical. The list of pages is read from the route config, so a page added there is walked
 * without touching this file; a route's parameters are filled from the links the walk has seen (the demo
 * content's chapters, products, readers…), and the author's walk fails on a page route it could not reach.
 */

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

/** A page route's URL pattern ("/admin/readers/:id"); resource routes (`.ts` modules, no markup) are left out. */
function pagePatterns(entries: RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path === undefined ? parent : `${parent}/${entry.path}`.replace(/\/+/g, "/");
    const own = entry.file.endsWith(".tsx") && (entry.path !== undefined || entry.index) ? [path || "/"] : [];
    return [...own, ...pagePatterns(entry.children ?? [], path)];
  });
}

const patterns = [...new Set(pagePatterns(routes as RouteEntry[]))];

/** Page routes no link leads to, so no walk reaches them; each says why, and what covers it instead. */
const notWalked: Record<string, string> = {
  "/auth/:provider/callback":
    "the answer from an OAuth provider (tests/server/oauth.test.ts, with the fake one)",
  "/unsubscribe/:token":
    "the link in a release e-mail, with a token of its own (tests/server/release-mails.test.ts)",
  "/admin/polls/:id":
    "a poll's editor: the demo content has no poll to link to (tests/e2e/polls.spec.ts creates and edits one)",
  "/qa/:month":
    "a published month of Q&A, which the demo content has none of (tests/integration/qa.test.ts reads them)",
  "/pay/test/subscription/:subscription":
    "the test provider's page for a subscription, which starts a real one (tests/e2e/subscription.spec.ts)",
};

/** `/admin/readers/:id` → a pattern matching `/admin/readers/12`; the catch-all `*` → any path. */
function matcher(pattern: string): RegExp {
  const body = pattern
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".+" : part.replace(/\./g, "\\.")))
    .join("/");
  return new RegExp(`^${body}$`);
}

const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

type AxeResult = {
  violations: {
    id: string;
    impact: string | null;
    help: string;
    nodes: { target: string[]; failureSummary?: string }[];
  }[];
};

/** Element ids used more than once on the page, with their counts. */
function duplicateIds(page: Page) {
  return page.evaluate(() => {
    const counts = new Map<string, number>();
    for (const element of document.querySelectorAll("[id]"))
      counts.set(element.id, (counts.get(element.id) ?? 0) + 1);
    return [...counts].filter(([, count]) => count > 1).map(([id, count]) => `${id} ×${count}`);
  });
}

/** axe-core's serious and critical findings on the page as it is now, one line per rule and element. */
async function axeFindings(page: Page, rules?: string[]) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: axeSource });
  type Axe = { run: (context: Document, options: object) => Promise<AxeResult> };
  const result = await page.evaluate(
    (only) =>
      (window as unknown as { axe: Axe }).axe.run(
        document,
        only ? { runOnly: { type: "rule", values: only } } : {},
      ),
    rules,
  );
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) at ${node.target.join(" ")}: ${
            node.failureSummary?.split("\n").slice(1).join(" ").trim() ?? violation.help
          }`,
      ),
    );
}

/** Colour is all the theme changes: in the dark theme only the rules about colour are run again. */
const colourRules = ["color-contrast", "link-in-text-block"];

const onPhone = (testInfo: TestInfo) => testInfo.project.name === "phone";

/** The volumes of the demo content (content/volumes/N.md): /toc/volume/N is only linked for a long serial. */
const volumePages = readdirSync("content/volumes")
  .filter((file) => /^\d+\.md$/.test(file))
  .map((file) => `/toc/volume/${file.replace(/\.md$/, "")}`);

/**
 * A walk of every page route in one browser context (the role's), pages in sequence, each in both themes:
 * `visit` checks one URL (each page once: a page that redirects to one already checked, such as /login for
 * a visitor, and the 404 page are checked once); `everyPage` visits every pattern, filling parameters from
 * links seen on the pages walked so far, so a list leads to its items. It answers the patterns left unreached.
 */
function walker(
  page: Page,
  testInfo: TestInfo,
  { checks = (_path: string): boolean => true }: { checks?: (path: string) => boolean } = {},
) {
  const seenLinks = new Set<string>(volumePages);
  const requested = new Set<string>();
  const checked = new Set<string>();
  const problems: string[] = [];
  let notFoundChecked = false;
  const baseURL = testInfo.project.use.baseURL ?? "http://127.0.0.1";

  const visit = async (url: string) => {
    requested.add(url);
    seenLinks.add(new URL(url, baseURL).pathname);
    const response = await page.goto(url);
    const status = response?.status() ?? 0;
    const landed = new URL(page.url());
    const key = `${landed.pathname}${landed.search}`;
    if (status === 404 ? notFoundChecked : checked.has(key)) return;
    if (status === 404) notFoundChecked = true;
    checked.add(key);
    expect(status, `${url} answers`).toBeLessThan(500);
    await hydrated(page);
    for (const duplicate of await duplicateIds(page)) problems.push(`${key}: duplicate id ${duplicate}`);
    const hrefs = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].map((link) => link.href),
    );
    for (const href of hrefs) {
      const link = new URL(href);
      if (link.origin === landed.origin) seenLinks.add(link.pathname);
    }
    if (!checks(landed.pathname)) return;
    for (const finding of await axeFindings(page)) problems.push(`${key} (light): ${finding}`);
    // The colours are the same tokens at every width: the dark theme is checked on the desktop only.
    if (onPhone(testInfo)) return;
    // The dark theme as the site's theme switch sets it: the class on <html> (reduced motion: no transition).
    await page.evaluate(() => document.documentElement.classList.add("dark"));
    for (const finding of await axeFindings(page, colourRules)) problems.push(`${key} (dark): ${finding}`);
  };

  /** The URL to walk for a pattern: itself, or a link seen that fills its parameters. */
  const sample = (pattern: string, links: string[]) => {
    if (pattern === "/*") return "/no-such-page";
    if (!/[:*]/.test(pattern)) return pattern;
    const match = matcher(pattern);
    return links.find((link) => match.test(link) && !patterns.includes(link));
  };

  /** For a pattern unreached, one more item of its parent's list ("/shop/product/6" for its inquiry page). */
  const another = (pattern: string, walked: Set<string>) => {
    const segments = pattern.split("/");
    for (let end = segments.length - 1; end > 1; end--) {
      const parent = segments.slice(0, end).join("/");
      if (!walked.has(parent) || !parent.includes(":")) continue;
      const match = matcher(parent);
      return [...seenLinks].sort().find((link) => match.test(link) && !requested.has(link));
    }
    return undefined;
  };

  const everyPage = async () => {
    const walked = new Set<string>();
    const unreached = () => patterns.filter((pattern) => !walked.has(pattern) && !(pattern in notWalked));
    // Rounds: each reaches the patterns whose parameters a link seen so far fills (the items of a list walked
    // in the round before); when a round reaches nothing new, one more item of an unreached page's parent
    // list is walked, until that finds nothing either.
    for (;;) {
      let progress = false;
      const links = [...seenLinks].sort();
      for (const pattern of unreached()) {
        const url = sample(pattern, links);
        if (url === undefined) continue;
        walked.add(pattern);
        progress = true;
        if (!requested.has(url)) await visit(url);
      }
      if (progress) continue;
      const more = unreached()
        .map((pattern) => another(pattern, walked))
        .find((url) => url !== undefined);
      if (more === undefined) return unreached();
      await visit(more);
    }
  };

  return { visit, everyPage, problems, checked };
}

/**
 * A reader buys one Art Print on the test provider; the provider's page is walked on the way, as the order's
 * page is then (linked from the account).
 */
async function buyArtPrint(page: Page, walk: ReturnType<typeof walker>) {
  await page.goto("/shop/product/3");
  await hydrated(page);
  const piece = page.getByLabel(en.cart.add.piece);
  await piece.selectOption(
    (await piece.locator("option:not([disabled])").first().getAttribute("value")) ?? "",
  );
  // The piece is added by a background POST: the checkout is asked for once it is answered (else, once in a
  // while, the checkout came first and found the cart empty).
  await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST"),
    page.getByRole("button", { name: en.cart.add.button, exact: true }).click(),
  ]);
  await page.goto("/checkout");
  await page.getByLabel(en.checkout.address.name).fill("Ilse Marrow");
  await page.getByLabel(en.checkout.address.line1).fill("12 Lantern Row");
  await page.getByLabel(en.checkout.address.city).fill("New Lumen");
  await page.getByLabel(en.checkout.address.postalCode).fill("NL-1207");
  await page.getByLabel(en.checkout.address.country).selectOption("GB");
  await page.getByRole("button", { name: en.checkout.pay }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await walk.visit(new URL(page.url()).pathname);
  await page.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(page).toHaveURL(/\/orders\/\d+\?returned$/);
}

/**
 * The author leaves a comment on chapter 1 and sends an inquiry about the commission, so the admin's lists of
 * comments and inquiries are walked with an item whatever ran before (their forms and buttons are checked).
 */
async function commentAndInquire(page: Page, author: { email: string; username: string }) {
  await confirmEmail(page, author);
  await page.goto("/chapter/1");
  await hydrated(page);
  // The comments load as their region comes into view.
  const comments = page.getByRole("region", { name: "Comments" });
  await comments.scrollIntoViewIfNeeded();
  await comments.getByLabel(en.comments.form.label).fill(`Walked by ${author.username}.`);
  await comments.getByRole("button", { name: en.comments.form.post }).click();
  await expect(
    comments.getByRole("article").filter({ hasText: `Walked by ${author.username}.` }),
  ).toBeVisible();
  await page.goto("/shop/product/6");
  await page.getByRole("link", { name: en.shop.inquire }).click();
  await hydrated(page);
  await page.getByLabel(en.inquiry.fields.name).fill(author.username);
  await page.getByLabel("Email").fill(author.email);
  await page
    .getByLabel(en.inquiry.fields.message)
    .fill("A portrait of Aurelian on the archive roof, at night.");
  await page.getByRole("button", { name: en.inquiry.submit }).click();
  await expect(page).toHaveURL(/\?sent=1$/);
}

// One context per role, in the light theme first; reduced motion, so no transition is caught half-way; axe
// injected past the CSP.
test.use({ bypassCSP: true, reducedMotion: "reduce", colorScheme: "light" });

test("every page, as a visitor, has unique ids and no serious accessibility finding in either theme", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const walk = walker(page, testInfo);
  await walk.everyPage();
  testInfo.annotations.push({ type: "pages checked", description: String(walk.checked.size) });
  expect(walk.problems).toEqual([]);
});

test("every page, as a reader who bought an Art Print, has unique ids and no serious accessibility finding", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  await register(page);
  const walk = walker(page, testInfo);
  await buyArtPrint(page, walk);
  await walk.everyPage();
  testInfo.annotations.push({ type: "pages checked", description: String(walk.checked.size) });
  expect(walk.problems).toEqual([]);
});

test("every page, as the author, has unique ids and no serious accessibility finding; every page route is reached", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const author = await register(page);
  await grantAuthor(author.email);
  await commentAndInquire(page, author);
  // On the phone the reader's and the visitor's walks check the public pages; the author's checks the admin
  // (and still reaches every page route).
  const walk = walker(page, testInfo, {
    checks: (path) => !onPhone(testInfo) || path === "/admin" || path.startsWith("/admin/"),
  });
  await buyArtPrint(page, walk);
  const unreached = await walk.everyPage();
  testInfo.annotations.push({ type: "pages checked", description: String(walk.checked.size) });
  expect(unreached, "page routes no link leads to: add a link, or a reason to notWalked").toEqual([]);
  expect(walk.problems).toEqual([]);
});
