import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chapterForm } from "../support/admin";
import { Client, registerReader } from "../support/http";
import { waitFor } from "../support/poll";
import { createPostgresDatabase } from "../support/postgres";
import { type RunningServer, startServer } from "../support/server";
import { unique } from "../support/unique";

/**
 * An author's edit retires the kept pages it changed and no others (ADR 54), on both databases: an edit of
 * one chapter's text re-renders that chapter's pages and the pages listing chapters (reading minutes, feeds),
 * not the other chapters' pages nor pages that show no chapter; any other edit re-renders everything. The
 * renders are counted from the server's log (LOG_LEVEL=debug: one line per page rendered to keep).
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const run = promisify(execFile);

/** Visitors' pages kept before the edits. Chapters 1-3 are free in the demo; chapter 2's id is 2. */
const PAGES = [
  "/chapter/1",
  "/chapter/2",
  "/chapter/3",
  "/chapter/2.data",
  "/toc",
  "/",
  "/wiki",
  "/gallery",
  "/shop",
];

/** The renders each page has had (its key starts with the path and the request's query). */
function renders(server: RunningServer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of server.output().split("\n")) {
    if (!line.includes('"page.render"')) continue;
    const page = (JSON.parse(line) as { page: string }).page.split(" | ")[0] ?? "";
    counts.set(page, (counts.get(page) ?? 0) + 1);
  }
  return counts;
}

/** Asks for every page as a visitor, and returns which were rendered for it (not served as kept). */
async function visit(
  server: RunningServer,
  pages = PAGES,
): Promise<{ rendered: string[]; texts: Map<string, string> }> {
  const before = renders(server);
  const texts = new Map<string, string>();
  const misses: string[] = [];
  for (const pathname of pages) {
    const reply = await fetch(`${server.url}${pathname}`);
    expect(reply.status, pathname).toBe(200);
    if (reply.headers.get("x-cache") !== "hit") misses.push(pathname);
    texts.set(pathname, await reply.text());
  }
  const after = renders(server);
  const rendered = pages.filter((pathname) => (after.get(pathname) ?? 0) > (before.get(pathname) ?? 0));
  // The header says what the log says.
  expect(misses).toEqual(rendered);
  return { rendered, texts };
}

async function checkEdits(server: RunningServer, author: Client) {
  await visit(server);
  // Kept now: asked again, nothing is rendered.
  expect((await visit(server)).rendered).toEqual([]);

  const text = `A lantern relit at ${unique("edit")}.`;
  const saved = await author.post("/admin/chapters/2", await chapterForm(author, 2, { bodyMd: text }));
  expect(saved.status).toBe(302);
  const afterText = await visit(server);
  expect(afterText.texts.get("/chapter/2")).toContain(text);
  expect(afterText.rendered).toEqual(["/chapter/2", "/chapter/2.data", "/toc", "/"]);

  // A title is shown by other pages (the contents, the neighbours' links): everything is rendered again.
  const title = `The Relit Lantern ${unique("t")}`;
  const retitled = await author.post("/admin/chapters/2", await chapterForm(author, 2, { title }));
  expect(retitled.status).toBe(302);
  const afterTitle = await visit(server);
  expect(afterTitle.texts.get("/toc")).toContain(title);
  expect(afterTitle.rendered).toEqual(PAGES);
}

describe("an author's edit on PGlite", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-content-edits-"));
  let server: RunningServer;
  let author: Client;

  beforeAll(async () => {
    server = await startServer((url) => ({ DATA_DIR: dataDir, APP_ORIGIN: url, LOG_LEVEL: "debug" }));
    author = new Client(server.url);
    const name = await registerReader(author, dataDir, "author");
    await run(
      process.execPath,
      ["--import", "tsx", "scripts/admin.ts", "grant-author", `${name}@example.com`],
      {
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      },
    );
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("re-renders the edited chapter's pages and the lists of chapters after a text edit, everything after a title edit", async () => {
    await checkEdits(server, author);
  }, 60_000);
});

describe.runIf(inject("postgres"))("an author's edit on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-content-edits-pg-"));
  let server: RunningServer;
  let author: Client;
  let sql: pg.Client;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    server = await startServer((url) => ({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      APP_ORIGIN: url,
      LOG_LEVEL: "debug",
    }));
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    author = new Client(server.url);
    const name = await registerReader(author, dataDir, "author");
    await sql.query("update users set role = 'author' where username = $1", [name]);
  }, 120_000);

  afterAll(async () => {
    await sql?.end().catch(() => {});
    await server?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("re-renders the edited chapter's pages and the lists of chapters after a text edit, everything after a title edit", async () => {
    await checkEdits(server, author);
  }, 60_000);

  it("tells the text edit another process made apart from a broad one, at the next poll", async () => {
    await visit(server);
    const text = `Rewritten elsewhere at ${unique("sql")}.`;
    await sql.query("update chapters set body_md = $1, word_count = 4, updated_at = now() where number = 3", [
      text,
    ]);
    await waitFor(
      async () => ((await (await fetch(`${server.url}/chapter/3`)).text()).includes(text) ? true : undefined),
      { interval: 100, what: "the new text of chapter 3" },
    );
    const afterText = await visit(server);
    expect(afterText.rendered).not.toContain("/chapter/1");
    expect(afterText.rendered).not.toContain("/chapter/2");
    expect(afterText.rendered).not.toContain("/wiki");

    // A change no trigger notes row by row (a revision moved by hand, as a restore does) retires everything.
    await sql.query("update content_revision set revision = revision + 1");
    await waitFor(
      async () => {
        const before = renders(server).get("/wiki") ?? 0;
        await fetch(`${server.url}/wiki`);
        return (renders(server).get("/wiki") ?? 0) > before ? true : undefined;
      },
      { interval: 100, what: "the wiki rendered again after a gap" },
    );
    expect((await visit(server)).rendered).toEqual(PAGES.filter((pathname) => pathname !== "/wiki"));
  }, 60_000);
});
