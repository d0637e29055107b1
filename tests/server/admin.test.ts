import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { chapterForm } from "../support/admin";
import { Client, registerReader } from "../support/http";
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
// Parameters filled in: chapter 1's id is 1 in a fresh demo.
const paths = adminPaths(routes).map((target) => target.replace(":id", "1").replace(":slug", "terms"));
/** Admin routes with no page: an author's GET is refused (405) as for any other method they do not take. */
const resources = new Set(["/admin/drafts", "/admin/preview"]);

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir });
  author = new Client(server.url);
  authorName = await registerReader(author, dataDir, "author");
  reader = new Client(server.url);
  readerName = await registerReader(reader, dataDir, "reader");
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
      expect(response.status, target).toBe(resources.has(target) ? 405 : 200);
      expect(response.headers.get("cache-control"), target).toBe("no-store");
      await response.arrayBuffer();
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
});
