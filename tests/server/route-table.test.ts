import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { Client, registerReader } from "../support/http";
import { type RunningServer, startServer } from "../support/server";

/**
 * Every page of the route table names itself in its `<title>`, in every language, the 404 of every
 * parameterised route too; /chapter without a number leads to a chapter; the data download is a private
 * attachment. Against the built server.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const languages = ["en", "es", "fr", "ja"] as const;
const site = "Crimson Covenant";

/**
 * Sample requests for each route of app/routes.ts. `translated`: the page's name is interface words, so the
 * title differs by language (a chapter's or product's name is the author's, the same in every language).
 * `signedIn`: asked by a registered reader; `secondStep`: by a browser at a sign-in's second step (an author's
 * password given on a new device: ADR 65). Resource routes answer no page: listed so a new route is seen.
 */
type Sample = { path: string; status: number; translated: boolean; signedIn?: boolean; secondStep?: boolean };
const pages: Record<string, Sample[] | "resource"> = {
  "": [{ path: "/", status: 200, translated: false }],
  about: [{ path: "/about", status: 200, translated: true }],
  chapters: [{ path: "/chapters", status: 200, translated: true }],
  toc: [{ path: "/toc", status: 200, translated: true }],
  "toc/volume/:volume": [
    { path: "/toc/volume/2", status: 200, translated: true },
    { path: "/toc/volume/999", status: 404, translated: true },
    { path: "/toc/volume/two", status: 404, translated: true },
  ],
  // The EPUB downloads (ADR 89): files, tested in tests/integration/epub.test.ts and tests/e2e/epub.spec.ts.
  epub: "resource",
  "epub/volume/:volume": "resource",
  // A volume's locked chapters unlocked at once (ADR 90): the price first, for a signed-in reader.
  "unlock/volume/:volume": [
    { path: "/unlock/volume/1", status: 200, translated: true, signedIn: true },
    { path: "/unlock/volume/999", status: 404, translated: true, signedIn: true },
  ],
  chapter: "resource",
  "chapter/:id": [
    { path: "/chapter/1", status: 200, translated: false },
    { path: "/chapter/999", status: 404, translated: true },
  ],
  // A locked chapter's comments are as locked as its text.
  "chapter/:id/comments": [
    { path: "/chapter/1/comments", status: 200, translated: true },
    { path: "/chapter/4/comments", status: 403, translated: true },
    { path: "/chapter/999/comments", status: 404, translated: true },
  ],
  "reader/progress": "resource",
  "reader/settings": "resource",
  // Beta reading (ADR 83): the perk explained to a reader without it; the draft is their 404.
  beta: [
    { path: "/beta", status: 200, translated: true },
    { path: "/beta", status: 200, translated: true, signedIn: true },
  ],
  "beta/:id": [
    { path: "/beta/11", status: 404, translated: true },
    { path: "/beta/11", status: 404, translated: true, signedIn: true },
  ],
  wiki: [{ path: "/wiki", status: 200, translated: true }],
  "wiki/:section": [
    { path: "/wiki/characters", status: 200, translated: true },
    { path: "/wiki/spells", status: 404, translated: true },
  ],
  "wiki/:section/:slug": [
    { path: "/wiki/world/new-lumen", status: 200, translated: false },
    { path: "/wiki/world/nowhere", status: 404, translated: true },
  ],
  gallery: [{ path: "/gallery", status: 200, translated: true }],
  shop: [{ path: "/shop", status: 200, translated: true }],
  "shop/product/:id": [
    { path: "/shop/product/2", status: 200, translated: false },
    { path: "/shop/product/9999", status: 404, translated: true },
  ],
  // Products priced 0 only (ADR 26); the page's name is interface words around the product's.
  "shop/product/:id/inquire": [
    { path: "/shop/product/6/inquire", status: 200, translated: true },
    { path: "/shop/product/1/inquire", status: 404, translated: true },
  ],
  // POST only (ADR 24); a GET goes to the shop.
  cart: "resource",
  "cart/reply": "resource",
  fundraiser: [{ path: "/fundraiser", status: 200, translated: true }],
  "fundraiser/supporters": [{ path: "/fundraiser/supporters?page=2", status: 200, translated: true }],
  // The payer's own support payment only: any other id is 404.
  polls: [{ path: "/polls", status: 200, translated: true }],
  credits: [{ path: "/credits", status: 200, translated: true }],
  "fundraiser/thanks": [
    { path: "/fundraiser/thanks?payment=999999", status: 404, translated: true, signedIn: true },
  ],
  terms: [{ path: "/terms", status: 200, translated: false }],
  privacy: [{ path: "/privacy", status: 200, translated: false }],
  preferences: "resource",
  login: [{ path: "/login", status: 200, translated: true }],
  "login/verify": [{ path: "/login/verify", status: 200, translated: true, secondStep: true }],
  "login/verify/passkey": "resource",
  register: [{ path: "/register", status: 200, translated: true }],
  welcome: [{ path: "/welcome", status: 200, translated: true, signedIn: true }],
  "confirm-email": [
    { path: "/confirm-email?token=unknown", status: 200, translated: true },
    { path: "/confirm-email", status: 200, translated: true, signedIn: true },
  ],
  logout: "resource",
  "forgot-password": [{ path: "/forgot-password", status: 200, translated: true }],
  "reset-password": [{ path: "/reset-password?token=unknown", status: 200, translated: true }],
  "auth/:provider": "resource",
  "auth/:provider/callback": [{ path: "/auth/nowhere/callback", status: 404, translated: true }],
  // The local outbox (ADR 20): this server is one, on a localhost origin with no SMTP_URL.
  outbox: [{ path: "/outbox", status: 200, translated: true }],
  "outbox/:id": [{ path: "/outbox/2026-11-25T06-07-22-123Z-none", status: 404, translated: true }],
  account: [{ path: "/account", status: 200, translated: true, signedIn: true }],
  "account/data": "resource",
  "account/supporter": [{ path: "/account/supporter", status: 200, translated: true, signedIn: true }],
  "account/subscription": [{ path: "/account/subscription", status: 200, translated: true, signedIn: true }],
  settings: [{ path: "/settings", status: 200, translated: true, signedIn: true }],
  "settings/security": [{ path: "/settings/security", status: 200, translated: true, signedIn: true }],
  "settings/security/passkey": "resource",
  "settings/discord": "resource",
  // Without a Discord bot configured (this server has none), the link's return is the ordinary 404.
  "settings/discord/callback": [
    { path: "/settings/discord/callback", status: 404, translated: true, signedIn: true },
  ],
  qa: [
    { path: "/qa", status: 200, translated: true },
    { path: "/qa", status: 200, translated: true, signedIn: true },
  ],
  // A month not published, and one that is no month.
  "qa/:month": [
    { path: "/qa/2026-11", status: 404, translated: true },
    { path: "/qa/november", status: 404, translated: true },
  ],
  achievements: [{ path: "/achievements", status: 200, translated: true, signedIn: true }],
  coins: [{ path: "/coins", status: 200, translated: true }],
  checkout: [{ path: "/checkout", status: 200, translated: true, signedIn: true }],
  "orders/:id": [{ path: "/orders/999999", status: 404, translated: true, signedIn: true }],
  "pay/test/:session": [
    { path: "/pay/test/{checkout}", status: 200, translated: true, signedIn: true },
    { path: "/pay/test/unknown", status: 404, translated: true },
  ],
  // The test provider's page for a subscription (ADR 27): the subscriber's own only.
  "pay/test/subscription/:subscription": [
    { path: "/pay/test/subscription/tsub_unknown", status: 404, translated: true, signedIn: true },
  ],
  "webhooks/:provider": "resource",
  // The author's admin: the ordinary 404 to anyone else (tests/server/admin.test.ts walks it as an author).
  admin: [{ path: "/admin", status: 404, translated: true, signedIn: true }],
  "admin/chapters": [{ path: "/admin/chapters", status: 404, translated: true }],
  "admin/authors": [{ path: "/admin/authors", status: 404, translated: true, signedIn: true }],
  "admin/audit": [{ path: "/admin/audit", status: 404, translated: true }],
  "admin/clock": [{ path: "/admin/clock", status: 404, translated: true }],
  "admin/orders": [{ path: "/admin/orders", status: 404, translated: true, signedIn: true }],
  "admin/orders/:id": [{ path: "/admin/orders/1", status: 404, translated: true }],
  "admin/payments": [{ path: "/admin/payments", status: 404, translated: true }],
  "admin/subscriptions": [{ path: "/admin/subscriptions", status: 404, translated: true, signedIn: true }],
  "admin/payments/:id": [{ path: "/admin/payments/1", status: 404, translated: true, signedIn: true }],
  "admin/export/orders.csv": "resource",
  "admin/export/payments.csv": "resource",
  "admin/readers": [{ path: "/admin/readers", status: 404, translated: true }],
  "admin/readers/:id": [{ path: "/admin/readers/1", status: 404, translated: true }],
  "admin/analytics": [
    { path: "/admin/analytics?sort=coins&dir=asc", status: 404, translated: true, signedIn: true },
  ],
  "admin/analytics/:id": [{ path: "/admin/analytics/1", status: 404, translated: true }],
  "admin/drafts": "resource",
  "feed.atom": "resource",
  "feed.rss": "resource",
  "feed/private/:token": "resource",
  notify: "resource",
  "notify/state": "resource",
  "unsubscribe/:token": [{ path: "/unsubscribe/not-a-real-link", status: 404, translated: true }],
  "sitemap.xml": "resource",
  "robots.txt": "resource",
  "card/site.png": "resource",
  "card/chapter/:file": "resource",
  "admin/uploads": [{ path: "/admin/uploads", status: 404, translated: true, signedIn: true }],
  "admin/site": [{ path: "/admin/site", status: 404, translated: true, signedIn: true }],
  "admin/wiki": [{ path: "/admin/wiki", status: 404, translated: true, signedIn: true }],
  "admin/wiki/new": [{ path: "/admin/wiki/new", status: 404, translated: true }],
  "admin/wiki/:id": [{ path: "/admin/wiki/1", status: 404, translated: true, signedIn: true }],
  "admin/gallery": [{ path: "/admin/gallery", status: 404, translated: true, signedIn: true }],
  "admin/gallery/new": [{ path: "/admin/gallery/new", status: 404, translated: true }],
  "admin/gallery/:id": [{ path: "/admin/gallery/1", status: 404, translated: true, signedIn: true }],
  "admin/coins": [{ path: "/admin/coins", status: 404, translated: true, signedIn: true }],
  "admin/coins/new": [{ path: "/admin/coins/new", status: 404, translated: true }],
  "admin/coins/:key": [{ path: "/admin/coins/coins-5", status: 404, translated: true, signedIn: true }],
  "admin/products": [{ path: "/admin/products", status: 404, translated: true, signedIn: true }],
  "admin/products/new": [{ path: "/admin/products/new", status: 404, translated: true }],
  "admin/products/:id": [{ path: "/admin/products/1", status: 404, translated: true, signedIn: true }],
  "admin/legal/:slug": [{ path: "/admin/legal/terms", status: 404, translated: true, signedIn: true }],
  "admin/tiers": [{ path: "/admin/tiers", status: 404, translated: true, signedIn: true }],
  "admin/goals": [{ path: "/admin/goals", status: 404, translated: true }],
  "admin/goals/new": [{ path: "/admin/goals/new", status: 404, translated: true, signedIn: true }],
  "admin/goals/:id": [{ path: "/admin/goals/1", status: 404, translated: true, signedIn: true }],
  "admin/polls": [{ path: "/admin/polls", status: 404, translated: true, signedIn: true }],
  "admin/polls/new": [{ path: "/admin/polls/new", status: 404, translated: true }],
  "admin/polls/:id": [{ path: "/admin/polls/1", status: 404, translated: true, signedIn: true }],
  "admin/qa": [{ path: "/admin/qa", status: 404, translated: true, signedIn: true }],
  "admin/announcements": [{ path: "/admin/announcements", status: 404, translated: true, signedIn: true }],
  "admin/credits": [{ path: "/admin/credits", status: 404, translated: true, signedIn: true }],
  "admin/chapters/new": [{ path: "/admin/chapters/new", status: 404, translated: true }],
  "admin/chapters/:id": [{ path: "/admin/chapters/1", status: 404, translated: true, signedIn: true }],
  "admin/chapters/:id/revisions": [{ path: "/admin/chapters/1/revisions", status: 404, translated: true }],
  "admin/chapters/:id/translations/:lang": [
    { path: "/admin/chapters/1/translations/fr", status: 404, translated: true },
  ],
  "admin/translations": [{ path: "/admin/translations", status: 404, translated: true, signedIn: true }],
  "admin/translations/:kind/:lang": [
    { path: "/admin/translations/wiki/fr?key=characters%2Filse-marrow", status: 404, translated: true },
  ],
  "admin/chapters/:id/feedback": [
    { path: "/admin/chapters/1/feedback", status: 404, translated: true, signedIn: true },
  ],
  "admin/preview": "resource",
  "admin/comments": [{ path: "/admin/comments", status: 404, translated: true, signedIn: true }],
  "admin/inquiries": [{ path: "/admin/inquiries", status: 404, translated: true, signedIn: true }],
  "*": [{ path: "/no/such/page", status: 404, translated: true }],
};

function paths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const own = entry.index ? parent : [parent, entry.path ?? ""].filter(Boolean).join("/");
    return [...(entry.children ? [] : [own]), ...paths(entry.children ?? [], own)];
  });
}

const titlesOf = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1]);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-route-table-"));
let server: RunningServer;
let reader: Client;
/** The reader's test checkout page, started in `beforeAll` (where the reader also reads chapter 2). */
let checkout = "";
/** A browser an author gave their password on, asked for the sign-in's second step (`beforeAll`). */
let secondStep: Client;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir });
  reader = new Client(server.url);
  await registerReader(reader, dataDir, "titles");
  const author = await registerReader(new Client(server.url), dataDir, "titlesauthor");
  await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/admin.ts", "grant-author", `${author}@example.com`],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" } },
  );
  secondStep = new Client(server.url);
  const signIn = await secondStep.post("/login", {
    email: `${author}@example.com`,
    password: "first secret",
  });
  expect(signIn.headers.get("location")).toBe("/login/verify");
  checkout = (await reader.post("/coins", { packKey: "coins-5" })).headers.get("location") ?? "";
  expect(checkout).toMatch(/^\/pay\/test\/./);
  // Part way through chapter 2, with a bookmark, as the reader's page reports it.
  const saved = await fetch(`${server.url}/reader/progress`, {
    method: "POST",
    body: JSON.stringify({
      entries: [
        {
          chapter: 2,
          progress: {
            scrollPosition: 0.3,
            paragraph: 4,
            completionPercentage: 30,
            readingTime: 90,
            completed: false,
            bookmarks: [4],
            lastReadAt: new Date().toISOString(),
          },
        },
      ],
    }),
    headers: {
      cookie: reader.cookieHeader,
      "content-type": "application/json",
      origin: server.url,
      "sec-fetch-site": "same-origin",
    },
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("page titles", () => {
  it("has samples for every route of the route table", () => {
    expect(paths(routes).sort()).toEqual(Object.keys(pages).sort());
  });

  const samples = Object.values(pages).flatMap((value) => (value === "resource" ? [] : value));
  it.each(samples)(
    "$path names itself in each language",
    async ({ path: page, status, translated, signedIn, secondStep: atSecondStep }) => {
      const titles: string[] = [];
      for (const language of languages) {
        const client = signedIn ? reader : atSecondStep ? secondStep : new Client(server.url);
        const response = await client.get(page.replace("/pay/test/{checkout}", checkout), {
          "accept-language": language,
        });
        expect(response.status, `${page} in ${language}`).toBe(status);
        const found = titlesOf(await response.text());
        expect(found, `${page} in ${language}: one <title>`).toHaveLength(1);
        const [title = ""] = found;
        expect(title.trim(), `${page} in ${language}`).not.toBe("");
        expect(title, `${page} in ${language}: more than the site's name`).not.toBe(site);
        titles.push(title);
      }
      if (translated) expect(new Set(titles).size, titles.join(" / ")).toBe(languages.length);
    },
  );

  it("names the page and then the site", async () => {
    const title = (page: string, language: string) =>
      new Client(server.url)
        .get(page, { "accept-language": language })
        .then(async (response) => titlesOf(await response.text())[0]);
    expect(await title("/shop", "en")).toBe("Shop · Crimson Covenant");
    expect(await title("/toc", "fr")).toBe("Table des matières · Crimson Covenant");
    expect(await title("/nowhere", "ja")).toBe("ページが見つかりません｜Crimson Covenant");
  });
});

describe("/chapter without a number", () => {
  it.each(["/chapter", "/chapter/"])("sends a visitor from %s to chapter 1", async (page) => {
    const response = await new Client(server.url).get(page);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/chapter/1");
    expect(response.headers.get("cache-control")).toContain("no-store");
  });

  it("sends a signed-in reader to where they left off (chapter 2, saved in beforeAll)", async () => {
    for (const page of ["/chapter", "/chapter/"]) {
      const response = await reader.get(page);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/chapter/2");
    }
  });
});

describe("the data download", () => {
  it("is a private attachment holding the reader's progress and payments", async () => {
    const response = await reader.get("/account/data");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="my-data-titles\w+\.json"$/,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = await response.json();
    expect(body).toMatchObject({ format: "crimson-covenant/account-data", version: 1 });
    expect(body.readingProgress).toEqual([expect.objectContaining({ chapterNumber: 2, bookmarks: [4] })]);
    expect(body.payments).toEqual([expect.objectContaining({ coinPackKey: "coins-5", status: "pending" })]);
  });

  it("sends a visitor to sign in", async () => {
    const response = await new Client(server.url).get("/account/data");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Faccount%2Fdata");
  });
});

describe("a body that is not a form", () => {
  // Every route, with its parameters filled in: a text, JSON or broken multipart body posted to it is the
  // client's mistake (4xx) or is not read at all (a redirect), never a server error.
  const targets = paths(routes).map((route) =>
    `/${route}`.replace(":provider", "discord").replace(/:\w+/g, "1").replace("*", "nowhere"),
  );
  const bodies = [
    { "content-type": "text/plain", body: "intent=reading&fontSize=16" },
    { "content-type": "application/json", body: '{"intent":"join"}' },
    { "content-type": "multipart/form-data", body: "--x\r\nbroken" },
    { "content-type": "multipart/form-data; boundary=x", body: "--x\r\nContent-Disposition: form-data\r\n" },
  ];
  it.each(targets)("POST %s answers below 500", async (target) => {
    for (const { body, ...headers } of bodies) {
      const response = await fetch(`${server.url}${target}`, {
        method: "POST",
        body,
        headers: {
          ...headers,
          cookie: reader.cookieHeader,
          origin: server.url,
          "sec-fetch-site": "same-origin",
        },
        redirect: "manual",
      });
      expect(response.status, `${target} with ${headers["content-type"]}`).toBeLessThan(500);
      await response.body?.cancel();
    }
  });
});
