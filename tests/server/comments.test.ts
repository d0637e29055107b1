import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerReader } from "../support/http";
import { waitFor } from "../support/poll";
import { type RunningServer, startServer } from "../support/server";

/**
 * Chapter comments over HTTP (ADR 47): a visitor's comments page is kept and retired by the
 * comments revision (the chapter page is not); a locked chapter's comments answer 403 as a page, as route
 * data and to a post; a form without scripts is sent back to the thread; nothing sent makes a 500.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-comments-"));
let server: RunningServer;
let reader: Client;
const data = (path: string) => `${path}.data?_routes=routes%2Fchapter-comments`;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir });
  reader = new Client(server.url);
  await registerReader(reader, dataDir, "commenter", { confirmed: true });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("chapter comments over HTTP", () => {
  it("a comment posted without scripts returns to the thread; visitors see it on the kept page within a poll", async () => {
    const visitor = new Client(server.url);
    const before = await visitor.get("/chapter/1/comments");
    expect(before.status).toBe(200);
    // Kept for every visitor: an ETag, and nothing of anyone's.
    expect(before.headers.get("etag")).toBeTruthy();
    const chapterTag = (await visitor.get("/chapter/1")).headers.get("etag");

    const text = `Seen over HTTP ${Date.now()}`;
    const posted = await reader.post("/chapter/1/comments?order=oldest", { intent: "post", body: text });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toMatch(/^\/chapter\/1\/comments\?order=oldest#comment-\d+$/);
    await waitFor(
      async () =>
        (await (await visitor.get("/chapter/1/comments")).text()).includes(text) ? true : undefined,
      {
        what: "the kept comments page to show the new comment",
      },
    );
    await waitFor(
      async () => ((await (await visitor.get("/toc")).text()).includes("1 comment") ? true : undefined),
      {
        what: "the table of contents to count it",
      },
    );
    const routeData = await visitor.get(data("/chapter/1/comments"));
    expect(routeData.status).toBe(200);
    expect(await routeData.text()).toContain(text);
    // The chapter page itself is the same page as before the comment.
    expect((await visitor.get("/chapter/1")).headers.get("etag")).toBe(chapterTag);
  });

  it("a locked chapter's comments are refused as a page, as route data and to a post", async () => {
    const visitor = new Client(server.url);
    expect((await visitor.get("/chapter/4/comments")).status).toBe(403);
    expect((await visitor.get(data("/chapter/4/comments"))).status).toBe(403);
    expect((await reader.get("/chapter/4/comments")).status).toBe(403);
    const refused = await reader.post(data("/chapter/4/comments"), { intent: "post", body: "let me in" });
    expect(refused.status).toBe(403);
    expect((await visitor.post("/chapter/1/comments", { intent: "post", body: "anonymous" })).status).toBe(
      401,
    );
  });

  it("answers any query or form with a page or a refusal, never a 500 (fuzzed)", async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("-1", "0", "99999999999", "1e3", "%00", "newest", "\u0000", "a\u0000b"),
    );
    await fc.assert(
      fc.asyncProperty(text, text, text, async (order, page, body) => {
        const query = new URLSearchParams({ order, page }).toString();
        // A NUL is refused at the edge (ADR 64); anything else is the page.
        const nul = `${order}${page}`.includes("\u0000");
        expect((await fetch(`${server.url}/chapter/1/comments?${query}`)).status).toBe(nul ? 400 : 200);
        const answer = await reader.post(data("/chapter/1/comments"), {
          intent: page,
          comment: order,
          body,
          on: order,
        });
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});
