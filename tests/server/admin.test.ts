import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { chapterForm } from "../support/admin";
import { buyArtPrint, Client, registerReader } from "../support/http";
import { waitForMail } from "../support/mail";
import { type RunningServer, startServer } from "../support/server";

/**
 * The author's admin over HTTP against the built server: `npm run admin` grants the role through the running
 * server's admin socket; every admin route and action answers the ordinary 404 to visitors and readers (the
 * routes are read from the route table, so a new admin route is walked too); admin answers are never kept.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const run = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-admin-"));
let server: RunningServer;
let author: Client;
let authorName: string;
let reader: Client;
let readerName: string;

/** `npm run admin -- <args>` on this test's data directory: its exit code and output. */
async function admin(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

function adminPaths(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.path?.startsWith("admin") ? [`/${entry.path}`] : []),
    ...adminPaths(entry.children ?? []),
  ]);
}
// Parameters filled in: chapter 1's id (and the first gallery piece's) is 1 in a fresh demo; coins-5 a demo pack.
const paths = adminPaths(routes).map((target) =>
  target
    .replace(":id", "1")
    .replace(":slug", "terms")
    .replace(":key", "coins-5")
    .replace(":lang", "fr")
    // The site's texts: the one original of its kind, named in the query (ADR 98).
    .replace("/:kind/fr", "/site/fr?key=site"),
);
/** Admin routes with no page: an author's GET is refused (405) as for any other method they do not take. */
const resources = new Set(["/admin/drafts", "/admin/preview"]);
/** Admin pages of a row the demo content has none of: the ordinary 404 (tests/e2e/polls.spec.ts edits a poll). */
const noDemoRow = new Set(["/admin/polls/1"]);

beforeAll(async () => {
  // The test clock is on here (ADR 39), so its page is walked with the others and a release is passed.
  server = await startServer({ DATA_DIR: dataDir, TEST_CLOCK: "true" });
  author = new Client(server.url);
  authorName = await registerReader(author, dataDir, "author");
  reader = new Client(server.url);
  readerName = await registerReader(reader, dataDir, "reader");
  // The reader buys an Art Print of the first piece on the test provider: order 1 and payment 1, walked below.
  await buyArtPrint(reader);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the author's admin", () => {
  it("has pages in the route table", () => {
    expect(paths).toEqual(
      expect.arrayContaining(["/admin", "/admin/chapters", "/admin/authors", "/admin/audit"]),
    );
  });

  it("answers every admin route and action with the ordinary 404 to a visitor and a reader, never kept", async () => {
    const visitor = new Client(server.url);
    const notFound = await (await visitor.get("/no/such/page")).text();
    const title = /<title>([^<]*)<\/title>/.exec(notFound)?.[1];
    for (const who of [visitor, reader]) {
      for (const target of paths) {
        for (const request of [
          () => who.get(target),
          () => who.get(`${target}.data`),
          () => who.post(target, { intent: "grant", email: `${readerName}@example.com` }),
        ]) {
          const response = await request();
          expect(response.status, target).toBe(404);
          expect(response.headers.get("cache-control"), target).toBe("no-store");
          const body = await response.text();
          if (response.headers.get("content-type")?.startsWith("text/html"))
            expect(/<title>([^<]*)<\/title>/.exec(body)?.[1], target).toBe(title);
        }
      }
    }
    // The reader was not made an author by any of those posts.
    expect((await reader.get("/admin")).status).toBe(404);
  });

  it("is granted from the command line through the running server, and the last author stays", async () => {
    expect(await admin("grant-author", "nobody@example.com")).toMatchObject({
      code: 1,
      out: expect.stringContaining("No account has the e-mail nobody@example.com"),
    });
    expect(await admin("grant-author", `${authorName}@example.com`)).toMatchObject({
      code: 0,
      out: expect.stringContaining("is now an author"),
    });
    expect(await admin("revoke-author", `${authorName}@example.com`)).toMatchObject({
      code: 1,
      out: expect.stringContaining("is the last author"),
    });
    for (const target of paths) {
      const response = await author.get(target);
      expect(response.status, target).toBe(resources.has(target) ? 405 : noDemoRow.has(target) ? 404 : 200);
      expect(response.headers.get("cache-control"), target).toBe("no-store");
      // Every text's placeholders are filled: a "{{" left is a translation called without its values.
      expect(await response.text(), target).not.toContain("{{");
    }
  });

  it("grants and revokes from /admin/authors, effective on the next request, and logs both", async () => {
    const granted = await author.post("/admin/authors", {
      intent: "grant",
      email: `${readerName}@example.com`,
    });
    expect(granted.status).toBe(200);
    expect(await granted.text()).toContain(`${readerName}@example.com is now an author.`);
    expect((await reader.get("/admin")).status).toBe(200);
    const revoked = await author.post("/admin/authors", {
      intent: "revoke",
      email: `${readerName}@example.com`,
    });
    expect(revoked.status).toBe(200);
    expect((await reader.get("/admin")).status).toBe(404);
    const unknown = await author.post("/admin/authors", { intent: "grant", email: "ghost@example.com" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("No account has this e-mail.");
    const last = await author.post("/admin/authors", {
      intent: "revoke",
      email: `${authorName}@example.com`,
    });
    expect(last.status).toBe(409);

    const log = await (await author.get("/admin/audit?subject=user")).text();
    const actions = [...log.matchAll(/<span class="font-semibold">([\w.]+)<\/span>/g)].map(
      (match) => match[1],
    );
    expect(actions).toEqual(["author.revoke", "author.grant", "author.grant"]);
    expect(log).toContain("Command line");
    expect(log).toContain(authorName);
  });

  it("shows the way into the admin to the author alone, whichever of them a kept page was rendered for", async () => {
    // The root's data (the hand-off, which the side menu reads) and the account page carry it for the author.
    const carriesAdmin = async (who: Client, path: string) => {
      const html = await (await who.get(path)).text();
      const handOff = /<script type="application\/json" id="hand-off">([\s\S]*?)<\/script>/.exec(html)?.[1];
      expect(handOff, path).toBeDefined();
      return { root: /"isAuthor"/.test(handOff ?? ""), link: html.includes('href="/admin"') };
    };
    const visitor = new Client(server.url);
    // Chapter 2 first for a reader (kept for the readers' group), chapter 3 first for the author; then each
    // asks for the other's, twice, so a kept page is served if one was kept.
    for (const [first, second] of [
      [reader, author],
      [author, reader],
      [reader, author],
    ] as const) {
      for (const path of ["/chapter/2", "/chapter/3", "/toc", "/account"]) {
        for (const who of [first, second]) {
          const seen = await carriesAdmin(who, path);
          expect(seen.root, `${path} ${who === author ? "author" : "reader"}`).toBe(who === author);
          if (path === "/account") expect(seen.link).toBe(who === author);
        }
      }
    }
    for (const path of ["/chapter/2", "/toc"]) expect((await carriesAdmin(visitor, path)).root).toBe(false);
  });

  it("lists chapters with filters and a search that matches text, not patterns", async () => {
    const all = await (await author.get("/admin/chapters")).text();
    const total = Number(/data-testid="admin-chapter-total"[^>]*>(\d+) chapters</.exec(all)?.[1]);
    expect(total).toBeGreaterThan(3);
    const published = await (await author.get("/admin/chapters?status=published")).text();
    expect(
      Number(/data-testid="admin-chapter-total"[^>]*>(\d+) chapters?</.exec(published)?.[1]),
    ).toBeLessThanOrEqual(total);
    const wildcard = await (await author.get("/admin/chapters?q=%25")).text();
    expect(wildcard).toMatch(/data-testid="admin-chapter-total"[^>]*>0 chapters</);
    // Unknown or out-of-range filters are dropped, not errors.
    expect((await author.get("/admin/chapters?status=nope&volume=-4&page=99999999")).status).toBe(200);
  });

  it("saves chapter 1's text: the next request for /chapter/1 shows it; a stale save is a 409 that keeps the text", async () => {
    const fields = await chapterForm(author, 1, {
      bodyMd: "The lamps went out at the stroke of nine, and the city held its breath.",
    });
    const version = fields.version;
    expect(fields.title).not.toBe("");
    expect(fields.releaseLocal).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const before = await (await new Client(server.url).get("/chapter/1")).text();
    expect(before).not.toContain("held its breath");
    const saved = await author.post("/admin/chapters/1", fields);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/admin/chapters/1?saved=${Number(version) + 1}`);
    const after = await (await new Client(server.url).get("/chapter/1")).text();
    expect(after).toContain("The lamps went out at the stroke of nine, and the city held its breath.");

    const stale = await author.post("/admin/chapters/1", {
      ...fields,
      bodyMd: "A stale edit that must not win.",
    });
    expect(stale.status).toBe(409);
    const page = await stale.text();
    expect(page).toContain("A stale edit that must not win.");
    expect(page).toContain("since you opened it");
    expect(await (await new Client(server.url).get("/chapter/1")).text()).not.toContain("stale edit");
  });

  it("previews a paid chapter as a reader who unlocked it under its banner, the author's own page: never kept, never a visitor's", async () => {
    const opened = await chapterForm(author, 1);
    const secret = "Only a paying reader reads of the bell tower at dawn.";
    const paid = await chapterForm(author, 1, { bodyMd: secret, coinsRequired: "3" });
    expect((await author.post("/admin/chapters/1", paid)).status).toBe(302);
    for (let round = 0; round < 2; round++) {
      const preview = await author.get("/chapter/1?as=unlocked");
      expect(preview.headers.get("x-cache")).not.toBe("hit");
      const html = await preview.text();
      expect(html).toContain(secret);
      expect(html).toContain('data-testid="preview-banner"');
      expect(html).toContain('href="/admin/chapters/1"');
    }
    const visitor = new Client(server.url);
    for (const path of ["/chapter/1?as=unlocked", "/chapter/1?as=unlocked", "/chapter/1"]) {
      const html = await (await visitor.get(path)).text();
      expect(html).not.toContain(secret);
      expect(html).not.toContain("preview-banner");
    }
    const back = await chapterForm(author, 1, { bodyMd: opened.bodyMd, coinsRequired: opened.coinsRequired });
    expect((await author.post("/admin/chapters/1", back)).status).toBe(302);
  });

  it("moves the release time: a chapter scheduled for tomorrow opens to readers when the clock passes it", async () => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    const local = tomorrow.toISOString().slice(0, 16);
    const { version: _opened, ...chapterOne } = await chapterForm(author, 1);
    const created = await author.post("/admin/chapters/new", {
      ...chapterOne,
      title: "The bell at the release minute",
      bodyMd: "It rang once, at the appointed minute.",
      status: "published",
      releaseLocal: local,
      coinsRequired: "1",
    });
    expect(created.status).toBe(302);
    const editor = created.headers.get("location") ?? "";
    const number = Number(/Edit chapter (\d+)/.exec(await (await author.get(editor)).text())?.[1]);
    expect(number).toBeGreaterThan(10);
    const visitor = new Client(server.url);
    // Locked with its date, twice, so the second answer is the kept page (kept until the release).
    for (let i = 0; i < 2; i++) {
      const locked = await (await visitor.get(`/chapter/${number}`)).text();
      expect(locked).toContain("This chapter will be released on");
      expect(locked).not.toContain("appointed minute");
    }
    const clock = await author.post("/admin/clock", {
      intent: "set",
      releaseLocal: new Date(tomorrow.getTime() + 60_000).toISOString().slice(0, 16),
    });
    expect(clock.status).toBe(200);
    expect(await clock.text()).toContain("The release time has moved.");
    // Now a coin opens it: a visitor is asked to sign in to unlock it, not to wait.
    const open = await (await visitor.get(`/chapter/${number}`)).text();
    expect(open).not.toContain("This chapter will be released on");
    expect(open).toMatch(/1 coin/);
    const reset = await author.post("/admin/clock", { intent: "reset" });
    expect(await reset.text()).toContain("The release time is the real time again.");
    expect(await (await visitor.get(`/chapter/${number}`)).text()).toContain(
      "This chapter will be released on",
    );
    expect(
      (await author.post("/admin/clock", { intent: "set", releaseLocal: "2200-01-01T00:00" })).status,
    ).toBe(400);
    const log = await (await author.get("/admin/audit?subject=clock")).text();
    expect(log).toContain("clock.set");
  });

  it("moves a chapter to another number: the old address leads to it while no chapter holds the number", async () => {
    const editor = await (await author.get("/admin/chapters/2")).text();
    const from = Number(/Edit chapter (\d+)/.exec(editor)?.[1]);
    const far = 500_000;
    const moved = await author.post("/admin/chapters/2", {
      intent: "move",
      from: String(from),
      to: String(far),
    });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe(`/admin/chapters/2?moved=${far}`);
    const old = await new Client(server.url).get(`/chapter/${from}?as=visitor`);
    expect(old.status).toBe(302);
    // A visitor's chapter page reads no parameter: once the page cache keeps the old address's page (an earlier
    // test may have), it answers the address without them (ADR 17).
    expect(old.headers.get("location")).toMatch(new RegExp(`^/chapter/${far}(\\?as=visitor)?$`));
    // From a stale page: a 409 that keeps the number typed.
    const stale = await author.post("/admin/chapters/2", { intent: "move", from: String(from), to: "7" });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("moved or renumbered in the meantime");
    expect(
      (await author.post("/admin/chapters/2", { intent: "move", from: String(far), to: "0" })).status,
    ).toBe(400);
    expect(
      (await author.post("/admin/chapters/2", { intent: "move", from: String(far), to: String(from) }))
        .status,
    ).toBe(302);
    expect((await new Client(server.url).get(`/chapter/${from}`)).status).toBe(200);
  });

  it("suspends a reader from their admin page: signed out at once, refused at sign-in with a message; restored, back in", async () => {
    const list = await (await author.get(`/admin/readers?q=${readerName}`)).text();
    const id = Number(new RegExp(`href="/admin/readers/(\\d+)"[^>]*>${readerName}<`).exec(list)?.[1]);
    expect(id).toBeGreaterThan(0);
    expect((await reader.get("/account")).status).toBe(200);
    const unconfirmed = await author.post(`/admin/readers/${id}`, {
      intent: "suspend",
      note: "Card testing",
    });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("Tick the box to confirm.");
    const suspended = await author.post(`/admin/readers/${id}`, {
      intent: "suspend",
      note: "Card testing",
      confirm: "on",
    });
    expect(suspended.status).toBe(302);
    expect((await reader.get("/account")).status).toBe(302);
    const login = await new Client(server.url).post("/login", {
      email: `${readerName}@example.com`,
      password: "first secret",
    });
    expect(login.status).toBe(403);
    expect(await login.text()).toContain("This account is suspended.");
    const page = await (await author.get(`/admin/readers/${id}`)).text();
    expect(page).toContain("Suspended since");
    expect(
      (await author.post(`/admin/readers/${id}`, { intent: "restore", note: "Cleared", confirm: "on" }))
        .status,
    ).toBe(302);
    const back = new Client(server.url);
    const again = await back.post("/login", { email: `${readerName}@example.com`, password: "first secret" });
    expect(again.status).toBe(302);
    reader = back;
    // A reader's id that is no account, and a malformed one: the admin's 404.
    expect((await author.get("/admin/readers/2000000000")).status).toBe(404);
    expect((await author.get("/admin/readers/x")).status).toBe(404);
  });

  it("saves a coin pack's price and creates a gallery piece: /coins and /gallery show them on the next request", async () => {
    const visitor = new Client(server.url);
    // Asked first, so a kept copy of each page would be what a stale cache answers.
    expect(await (await visitor.get("/coins")).text()).not.toContain("$7.77");
    expect(await (await visitor.get("/gallery")).text()).not.toContain("Made Over HTTP");
    const editor = await (await author.get("/admin/coins/coins-5")).text();
    const base = /name="base" value="([^"]+)"/.exec(editor)?.[1] ?? "";
    const pack = { coins: "5", priceCents: "777", currency: "USD", description: "Five.", order: "1" };
    const saved = await author.post("/admin/coins/coins-5", { ...pack, base });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/coins/coins-5?saved=1");
    expect(await (await visitor.get("/coins")).text()).toContain("$7.77");
    // The same form again is now stale: a 409 that keeps what was typed.
    const stale = await author.post("/admin/coins/coins-5", { ...pack, priceCents: "888", base });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain('value="888"');
    const created = await author.post("/admin/gallery/new", {
      slug: "made-over-http",
      title: "Made Over HTTP",
      imageUrl: "/media/gallery/ash-market.svg",
      descriptionMd: "",
      order: "0",
    });
    expect(created.status).toBe(302);
    expect(await (await visitor.get("/gallery")).text()).toContain("Made Over HTTP");
    const log = await (await author.get("/admin/audit?subject=coinPack")).text();
    expect(log).toContain("coinPack.update");
  });

  it("creates and edits a product: /shop and its page show it on the next request; it is deleted when unused", async () => {
    const name = `Lantern Pin ${Date.now()}`;
    const fields = {
      name,
      descriptionMd: "An enamel pin of the Watch's lantern.",
      priceCents: "1800",
      currency: "USD",
      category: "limited",
      membershipDays: "0",
      stock: "7",
      imageUrl: "/media/products/4.svg",
      variantKind: "none",
      requiresShipping: "on",
    };
    const created = await author.post("/admin/products/new", fields);
    expect(created.status).toBe(302);
    const editor = created.headers.get("location") ?? "";
    expect(editor).toMatch(/^\/admin\/products\/\d+\?saved=1$/);
    const id = /\/(\d+)\?/.exec(editor)?.[1];
    const visitor = new Client(server.url);
    expect(await (await visitor.get("/shop")).text()).toContain(name);
    expect(await (await visitor.get(`/shop/product/${id}`)).text()).toMatch(/>\$18</);

    const opened = await (await author.get(editor)).text();
    const base = /name="base" value="([\w-]{43})"/.exec(opened)?.[1] ?? "";
    const refused = await author.post(`/admin/products/${id}`, { ...fields, base, priceCents: "18.5" });
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain("Enter a price in cents from 0 to 1,000,000.");
    expect(again).toContain('value="18.5"');
    const saved = await author.post(`/admin/products/${id}`, {
      ...fields,
      base,
      priceCents: "2100",
      stockChange: "-2",
    });
    expect(saved.status).toBe(302);
    const page = await (await visitor.get(`/shop/product/${id}`)).text();
    expect(page).toMatch(/>\$21</);
    expect(page).toContain("Only 5 left");

    expect((await author.post(`/admin/products/${id}`, { intent: "delete" })).status).toBe(400);
    // In a cart: refused with what holds it, until the cart lets it go.
    const item = { productId: id ?? "", quantity: "1" };
    expect((await author.post("/cart", { intent: "add", ...item })).status).toBe(302);
    const held = await author.post(`/admin/products/${id}`, { intent: "delete", confirm: "on" });
    expect(held.status).toBe(409);
    expect(await held.text()).toContain("carts holding it: 1; order lines naming it: 0");
    expect((await author.post("/cart", { intent: "remove", productId: id ?? "" })).status).toBe(302);
    const deleted = await author.post(`/admin/products/${id}`, { intent: "delete", confirm: "on" });
    expect(deleted.status).toBe(302);
    expect((await visitor.get(`/shop/product/${id}`)).status).toBe(404);
    expect(await (await visitor.get("/shop")).text()).not.toContain(name);
  });

  it("ships the reader's order with a tracking number, e-mails them, refunds it, and exports it as CSV", async () => {
    const shipped = await author.post("/admin/orders/1", {
      intent: "ship",
      carrier: "Royal Mail",
      trackingNumber: "RM123456785GB",
      confirm: "on",
    });
    expect(shipped.status).toBe(302);
    expect(shipped.headers.get("location")).toBe("/admin/orders/1?done=ship");
    const order = await (await reader.get("/orders/1")).text();
    expect(order).toContain("Shipped");
    expect(order).toContain("RM123456785GB");
    const mail = await waitForMail(dataDir, `${readerName}@example.com`, { containing: "RM123456785GB" });
    expect(mail).toContain("Royal Mail");
    // Twice is refused, saying why, and nothing changes.
    const again = await author.post("/admin/orders/1", {
      intent: "ship",
      carrier: "DHL",
      trackingNumber: "JD0001",
      confirm: "on",
    });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("the order or payment changed meanwhile");
    // A refund with no box ticked is refused beside it; then the whole of it, through the test provider.
    const unconfirmed = await author.post("/admin/orders/1", { intent: "refund", amount: "", note: "Lost" });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("Tick the box to confirm.");
    const tooMuch = await author.post("/admin/orders/1", {
      intent: "refund",
      amount: "25.01",
      note: "Lost in the post",
      confirm: "on",
    });
    expect(tooMuch.status).toBe(409);
    expect(await tooMuch.text()).toContain("That is more than is left to refund.");
    const refunded = await author.post("/admin/orders/1", {
      intent: "refund",
      amount: "",
      note: "Lost in the post",
      confirm: "on",
    });
    expect(refunded.status).toBe(302);
    expect(await (await reader.get("/orders/1")).text()).toContain("Refunded");
    const payment = await (await author.get("/admin/payments/1")).text();
    expect(payment).toContain("Nothing is left to refund on this payment.");

    const csv = await author.get("/admin/export/orders.csv");
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = (await csv.text()).split("\r\n");
    expect(rows[1]).toMatch(new RegExp(`^#000001,.*,refunded,25\\.00,25\\.00,USD,1,${readerName},`));
    expect(rows[1]).toContain(",Royal Mail,RM123456785GB");
    expect((await reader.get("/admin/export/orders.csv")).status).toBe(404);
  });

  it("shows chapter analytics from the readers' progress, under the reading rule: a chapter only opened (at 45 %) is not started yet", async () => {
    const figure = (html: string, key: string) =>
      Number(new RegExp(`data-figure="${key}">([\\d,]+)<`).exec(html)?.[1]?.replace(/,/g, ""));
    const tenth = (html: string) =>
      Number(/<th scope="row"[^>]*>40–49%<\/th><td[^>]*>(\d+)</.exec(html)?.[1]);
    const before = await (await author.get("/admin/analytics/1")).text();
    const progress = {
      scrollPosition: 0.45,
      paragraph: 1,
      completionPercentage: 45,
      readingTime: 30,
      completed: false,
      bookmarks: [],
      lastReadAt: new Date().toISOString(),
    };
    const written = await fetch(`${server.url}/reader/progress`, {
      method: "POST",
      body: JSON.stringify({ entries: [{ chapter: 1, progress }] }),
      headers: { cookie: reader.cookieHeader, origin: server.url, "sec-fetch-site": "same-origin" },
    });
    expect(written.ok).toBe(true);
    const after = await (await author.get("/admin/analytics/1")).text();
    // The server has seen no reading time pass yet (its first write only starts the count: ADR 58), so the
    // reader is neither started nor in a tenth; a reader's counted reading is tested with a held clock in
    // tests/integration/reading-rule.test.ts and chapter-analytics.test.ts.
    expect(figure(after, "started")).toBe(figure(before, "started"));
    expect(figure(after, "finished")).toBe(figure(before, "finished"));
    expect(tenth(after)).toBe(tenth(before));
    expect(figure(after, "visitorsStarted")).toBe(0);
    expect(after).toContain('data-testid="drop-off-chart"');
    const list = await (await author.get("/admin/analytics")).text();
    // Nobody signed in has started chapter 1 (no funnel to draw yet); visitors' figures are there.
    expect(list).toContain("No signed-in reader has started the first chapter yet.");
    expect(list).toContain('data-testid="first-chapter-visitors"');
    expect(list).toContain('href="/admin/analytics/1"');

    // A query the page does not know is dropped; an id that is no chapter is the admin's 404; no form: 405.
    for (const query of ["sort=coins&dir=sideways&page=-1", `page=${"9".repeat(400)}`, "sort[]=x"])
      expect((await author.get(`/admin/analytics?${query}`)).status, query).toBe(200);
    // A NUL is refused at the edge, as in any query (ADR 64).
    expect((await author.get("/admin/analytics?sort=%00")).status).toBe(400);
    for (const id of ["2000000000", "99999999999", "x", "-1", "1.5"])
      expect((await author.get(`/admin/analytics/${id}`)).status, id).toBe(404);
    expect((await author.post("/admin/analytics", { sort: "coins" })).status).toBe(405);
  });

  it("moves one reader's reading time on: their next progress counts that much more, no one else's", async () => {
    const progress = (readingTime: number) => ({
      scrollPosition: 0.2,
      paragraph: 1,
      completionPercentage: 20,
      readingTime,
      completed: false,
      bookmarks: [],
      lastReadAt: new Date().toISOString(),
    });
    const write = async (client: Client, readingTime: number) => {
      const written = await fetch(`${server.url}/reader/progress`, {
        method: "POST",
        body: JSON.stringify({ entries: [{ chapter: 2, progress: progress(readingTime) }] }),
        headers: { cookie: client.cookieHeader, origin: server.url, "sec-fetch-site": "same-origin" },
      });
      expect(written.status).toBe(200);
      const kept = await client.get("/reader/progress?chapter=2");
      return ((await kept.json()) as { progress: { readingTime: number } }).progress.readingTime;
    };
    const moved = new Client(server.url);
    const movedName = await registerReader(moved, dataDir, "reading-moved");
    const other = new Client(server.url);
    await registerReader(other, dataDir, "reading-other");
    // The first write of a chapter only starts the server's count (ADR 58).
    expect(await write(moved, 5)).toBe(0);
    expect(await write(other, 5)).toBe(0);

    const answer = await author.post("/admin/clock", {
      intent: "reading",
      readerEmail: ` ${movedName.toUpperCase()}@EXAMPLE.COM `,
      seconds: "240",
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("The reader&#x27;s reading time has moved on.");
    // Four minutes of reading counted at once for them; the other reader's server saw seconds pass at most.
    expect(await write(moved, 200)).toBe(200);
    expect(await write(other, 200)).toBeLessThan(60);
    // The release time did not move; the page offers to undo the reader's.
    const page = await (await author.get("/admin/clock")).text();
    const release = Date.parse(/datetime="([^"]+)" data-testid="release-time"/i.exec(page)?.[1] ?? "");
    expect(Math.abs(release - Date.now())).toBeLessThan(60_000);
    expect(page).toContain("Back to the real time");

    // Refused: an address that is no reader's, seconds out of range or not whole; nothing moves.
    for (const [fields, message] of [
      [{ readerEmail: "nobody@example.com", seconds: "60" }, "Enter the e-mail of a reader of this site."],
      [{ readerEmail: "", seconds: "60" }, "Enter the e-mail of a reader of this site."],
      [{ readerEmail: "x".repeat(300), seconds: "60" }, "Enter the e-mail of a reader of this site."],
      [{ readerEmail: `${movedName}@example.com`, seconds: "0" }, "from 1 to 3600"],
      [{ readerEmail: `${movedName}@example.com`, seconds: "3601" }, "from 1 to 3600"],
      [{ readerEmail: `${movedName}@example.com`, seconds: "1.5" }, "from 1 to 3600"],
    ] as const) {
      const refused = await author.post("/admin/clock", { intent: "reading", ...fields });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(await refused.text()).toContain(message);
    }
    // A refused form comes back with what was typed in it.
    const kept = await (
      await author.post("/admin/clock", {
        intent: "reading",
        readerEmail: "nobody@example.com",
        seconds: "42",
      })
    ).text();
    expect(kept).toContain('value="nobody@example.com"');
    expect(kept).toContain('value="42"');
    // A reader may not move anyone's reading time.
    const own = await moved.post("/admin/clock", {
      intent: "reading",
      readerEmail: `${movedName}@example.com`,
      seconds: "60",
    });
    expect(own.status).toBe(404);
    const log = await (await author.get("/admin/audit?subject=user")).text();
    expect(log).toContain("clock.reading");

    // Back to the real time undoes it: the count's mark now stands ahead of the server's clock, so nothing more
    // counts until the real time reaches it.
    expect((await author.post("/admin/clock", { intent: "reset" })).status).toBe(200);
    expect(await write(moved, 3600)).toBe(200);
  });
});
