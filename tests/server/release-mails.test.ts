import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerReader } from "../support/http";
import { waitForMail } from "../support/mail";
import { type RunningServer, startServer } from "../support/server";

/**
 * Release e-mails over HTTP (ADR 45): a reader opts in with Notify me, the release time passes chapter 10 (the
 * test clock, ADR 39), the server's own worker writes the e-mail, and its link unsubscribes without a session:
 * by a mail program's one-click POST, never by opening it.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const run = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-release-mails-"));
let server: RunningServer;
let author: Client;
let reader: Client;
let readerName = "";

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir, TEST_CLOCK: "true" });
  author = new Client(server.url);
  const authorName = await registerReader(author, dataDir, "author");
  await run(
    process.execPath,
    ["--import", "tsx", "scripts/admin.ts", "grant-author", `${authorName}@example.com`],
    {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    },
  );
  reader = new Client(server.url);
  readerName = await registerReader(reader, dataDir, "notified");
}, 60_000);
afterAll(async () => {
  await author?.post("/admin/clock", { intent: "reset" });
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The reader's release e-mail choice, as "Notify me" on the table of contents asks it (ADR 101). */
const notifyOn = async () => ((await (await reader.get("/notify/state")).json()) as { on: boolean }).on;

describe("release e-mails over HTTP", () => {
  it("mails chapter 10 to a reader who opted in, and unsubscribes by the one-click POST only", async () => {
    const optIn = await reader.post("/notify", { notify: "on", redirectTo: "/toc" });
    expect(optIn.status).toBe(302);
    expect(optIn.headers.get("location")).toBe("/toc");
    expect(await notifyOn()).toBe(true);

    const moved = await author.post("/admin/clock", { intent: "set", releaseLocal: "2099-01-01T00:00" });
    expect(moved.status).toBe(200);
    const email = `${readerName}@example.com`;
    const mail = await waitForMail(dataDir, email, { containing: "Chapter 10 is out", timeout: 45_000 });
    expect(mail.replace(/\n[ \t]+/g, " ")).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const token = /\/unsubscribe\/([\w-]{43})/.exec(mail.replace(/=\n/g, ""))?.[1] ?? "";
    expect(token).toHaveLength(43);
    const link = `${server.url}/unsubscribe/${token}`;

    // A mail scanner (or the reader) opening the link: a page with a button, no change.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(await page.text()).toContain("Stop the e-mails");
    expect(await notifyOn()).toBe(true);

    // The mail program's one-click POST: no cookie, no Origin, the RFC 8058 body.
    const oneClick = await fetch(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await notifyOn()).toBe(false);
  }, 90_000);

  it("refuses a forged token with the translated 404, and a browser's cross-site POST with the origin check", async () => {
    const forged = await fetch(`${server.url}/unsubscribe/${"A".repeat(43)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(forged.status).toBe(404);
    expect(await forged.text()).toContain("This unsubscribe link is not one of ours");
    const unicode = await fetch(`${server.url}/unsubscribe/%F0%9F%A6%87${"x".repeat(3000)}`, {
      headers: { "accept-language": "fr" },
    });
    expect(unicode.status).toBe(404);
    expect(await unicode.text()).toContain("Ce lien ne fonctionne pas");
    // A page on another site cannot post here from a browser (S12): mail programs post from their servers.
    const crossSite = await fetch(`${server.url}/unsubscribe/${"A".repeat(43)}`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", origin: "https://mail.example" },
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
    expect(crossSite.status).toBe(403);
  });
});
