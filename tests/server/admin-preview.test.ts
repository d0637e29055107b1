import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "~/features/content/markdown.server";
import { MARKDOWN_MAX_BYTES } from "~/lib/markdown-limits";
import { Client, registerReader } from "../support/http";
import { type RunningServer, startServer } from "../support/server";

/**
 * The editor's live preview (/admin/preview) against the built server: an author gets the reader's own
 * rendering, sanitised; visitors and readers get the admin's 404 whatever they send; a text over the limit is
 * refused with a message key, and a body far over it at the edge.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-admin-preview-"));
let server: RunningServer;
let author: Client;
let reader: Client;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir });
  author = new Client(server.url);
  const authorName = await registerReader(author, dataDir, "writer");
  reader = new Client(server.url);
  await registerReader(reader, dataDir, "onlooker");
  await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/admin.ts", "grant-author", `${authorName}@example.com`],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" } },
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The editor's request: the text in a multipart form, as a browser's fetch sends a FormData. */
function preview(client: Client, fields: Record<string, string>): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return fetch(`${server.url}/admin/preview`, {
    method: "POST",
    body: form,
    headers: {
      cookie: client.cookieHeader,
      origin: server.url,
      "sec-fetch-site": "same-origin",
      accept: "application/json",
    },
  });
}

const hostile = [
  "The **first** night, she *ran*.",
  "",
  "* * *",
  "",
  '<script>document.title = "owned"</script>',
  '<img src="x" onerror="alert(1)">',
  "",
  "[a trap](javascript:alert(1)) and [the map](https://example.com/map)",
  "",
  "> Quoted.",
].join("\n");

describe("the editor's preview", () => {
  it("renders an author's Markdown with the reader's pipeline, sanitised, never kept", async () => {
    const response = await preview(author, { bodyMd: hostile });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { html } = (await response.json()) as { html: string };
    expect(html).toBe(renderMarkdown(hostile));
    expect(html).toContain("<strong>first</strong>");
    expect(html).toContain("<hr>");
    expect(html).toContain("<blockquote>");
    expect(html).toContain('href="https://example.com/map"');
    expect(html).not.toMatch(/<script|onerror|javascript:|owned/i);
  });

  it("previews an empty text as nothing", async () => {
    const response = await preview(author, { bodyMd: "" });
    expect(await response.json()).toEqual({ html: "" });
  });

  it("answers an author's GET with 405, and a form without the text with a message key", async () => {
    const get = await author.get("/admin/preview");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const missing = await preview(author, { body: "text" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "admin.editor.previewMissing" });
  });

  it("refuses a text over 200 KB with a message key, counting UTF-8 bytes", async () => {
    // 3 bytes a character: at the limit by bytes, a third of it by characters.
    const atLimit = "語".repeat(MARKDOWN_MAX_BYTES / 3 - 1);
    const accepted = await preview(author, { bodyMd: atLimit });
    expect(accepted.status).toBe(200);
    await accepted.arrayBuffer();
    const over = await preview(author, { bodyMd: `${atLimit}語語` });
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ error: "admin.editor.tooLong" });
  });

  it("refuses a body far over the limit at the edge (413), before the action reads it", async () => {
    const response = await preview(author, { bodyMd: "a".repeat(300 * 1024) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "payload-too-large" });
  });

  it("is the admin's 404 to a visitor and a reader, for a GET and a POST, and not logged as a failure", async () => {
    for (const who of [new Client(server.url), reader]) {
      for (const response of [
        await who.get("/admin/preview"),
        await who.get("/admin/preview.data"),
        await preview(who, { bodyMd: hostile }),
      ]) {
        expect(response.status).toBe(404);
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(await response.text()).not.toContain("<strong>");
      }
    }
    expect(server.output()).not.toContain("request failed");
  });
});

describe("an admin address that does not exist", () => {
  const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
  const addresses = ["/admin/readers", "/admin/audit", "/admin/no-such-page", "/admin/readers/1/nothing"];

  // GET, HEAD and POST reach the routes: 404 to a visitor or a reader, a real admin page or not. Any other
  // method is a 405 on every address of the site before a route is asked (ADR 64): the same for both too.
  it("answers a visitor and a reader as a real one does, 404 (405 for a method the site never answers)", async () => {
    for (const who of [new Client(server.url), reader])
      for (const address of addresses)
        for (const target of [address, `${address}.data`])
          for (const method of methods) {
            const response = await fetch(`${server.url}${target}`, {
              method,
              body:
                method === "GET" || method === "HEAD" ? undefined : new URLSearchParams({ intent: "coins" }),
              headers: { cookie: who.cookieHeader, origin: server.url, "sec-fetch-site": "same-origin" },
            });
            await response.arrayBuffer();
            const status = ["GET", "HEAD", "POST"].includes(method) ? 404 : 405;
            expect({ method, target, status: response.status }).toEqual({ method, target, status });
          }
  });

  it("is a 404 to an author too, for a form sent to it", async () => {
    const response = await author.post("/admin/no-such-page", { intent: "coins" });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("<title>");
  });
});

describe("the test clock, off (as on every real site)", () => {
  it("is a 404 even to an author, for a GET and a POST, and the nav does not offer it", async () => {
    expect((await author.get("/admin/clock")).status).toBe(404);
    expect((await author.post("/admin/clock", { intent: "reset" })).status).toBe(404);
    expect(await (await author.get("/admin")).text()).not.toContain('href="/admin/clock"');
  });
});
