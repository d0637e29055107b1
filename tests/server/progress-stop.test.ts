import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { Client, registerReader, saveBookmark } from "../support/http";
import { waitFor } from "../support/poll";
import { createPostgresDatabase, postgresReachable } from "../support/postgres";
import { freePort, spawnServer, waitUntilReady } from "../support/server";

/**
 * A graceful stop under progress writes (ADR 67): the server answers a write only once the batch it went in
 * has committed, and SIGTERM writes the batches queued and in flight before closing the database, so every
 * write it acknowledged is there after a restart, on PGlite and on PostgreSQL.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dirs: string[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const drop of drops) await drop();
});

const databases = (await postgresReachable()) ? (["pglite", "postgres"] as const) : (["pglite"] as const);

describe.each(databases)("SIGTERM under progress writes on %s", (database) => {
  it("loses no acknowledged write", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-progress-stop-"));
    dirs.push(dataDir);
    const env: Record<string, string> = { PORT: String(await freePort()), DATA_DIR: dataDir };
    if (database === "postgres") {
      const { url, drop } = await createPostgresDatabase();
      drops.push(drop);
      env.DATABASE_URL = url;
    }
    const first = spawnServer(env);
    await waitUntilReady(first);
    const readers = [new Client(first.url), new Client(first.url)];
    for (const [index, reader] of readers.entries()) await registerReader(reader, dataDir, `stop${index}`);

    // Two readers, ten chapters each, a write in flight per chapter at all times: they go in shared batches.
    // Each bookmark is one write; bookmarks are merged as a set, so every acknowledged one must stay.
    const acknowledged = new Map<string, number[]>();
    let running = true;
    const writers = readers.flatMap((reader, index) =>
      Array.from({ length: 10 }, async (_, chapterIndex) => {
        const chapter = chapterIndex + 1;
        const kept: number[] = [];
        acknowledged.set(`${index} ${chapter}`, kept);
        for (let bookmark = 1; running && bookmark < 900; bookmark++) {
          const response = await saveBookmark(reader, chapter, bookmark).catch(() => undefined);
          if (response?.status === 200) kept.push(bookmark);
          else break;
        }
      }),
    );
    const total = () => [...acknowledged.values()].reduce((sum, list) => sum + list.length, 0);
    await waitFor(() => (total() >= 60 ? true : undefined), { what: "60 acknowledged writes" });
    expect(await first.stop("SIGTERM")).toBe(0);
    running = false;
    await Promise.all(writers);
    expect(first.output()).not.toMatch(/"level":(50|60)/);

    const second = spawnServer(env);
    try {
      await waitUntilReady(second);
      for (const [key, bookmarks] of acknowledged) {
        const [index, chapter] = key.split(" ").map(Number);
        const reader = readers[index as number] as Client;
        const answer = await fetch(`${second.url}/reader/progress?chapter=${chapter}`, {
          headers: { cookie: reader.cookieHeader },
        });
        expect(answer.status).toBe(200);
        const { progress } = (await answer.json()) as { progress: { bookmarks: number[] } | null };
        const kept = new Set(progress?.bookmarks ?? []);
        expect(bookmarks.filter((bookmark) => !kept.has(bookmark))).toEqual([]);
      }
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});

/**
 * The stop while a batch waits in the database and writes queue behind it (PostgreSQL, where the test can hold
 * a row lock from outside, as another instance's batch does): the stop drains the requests in flight, which
 * wait for their batches, and writes what is still queued before closing the database, so every write it
 * answered is there after a restart. A write it had not taken yet is refused (a reset), never answered.
 */
describe.runIf((databases as readonly string[]).includes("postgres"))(
  "SIGTERM while a progress batch waits on postgres",
  () => {
    it("loses no acknowledged write queued behind the waiting batch", async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-progress-stop-"));
      dirs.push(dataDir);
      const { url, drop } = await createPostgresDatabase();
      drops.push(drop);
      const env = { PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: url };
      const first = spawnServer(env);
      await waitUntilReady(first);
      const readers = [new Client(first.url), new Client(first.url)];
      const names: string[] = [];
      for (const [index, reader] of readers.entries())
        names.push(await registerReader(reader, dataDir, `stopwait${index}`));
      expect((await saveBookmark(readers[0] as Client, 1, 1)).status).toBe(200);

      // The first reader's row of chapter 1 locked: the next batch with a write of it waits at its first
      // statement; the writes after it queue.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      await holder.query("begin");
      const locked = await holder.query(
        `select 1 from reading_progress p join users u on u.id = p.user_id
       where u.username = $1 for update of p`,
        [names[0]],
      );
      expect(locked.rowCount).toBe(1);
      // Watched from another connection: a transaction sees the activity view as it was when it began.
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      const waiting = async () => {
        const { rows } = await watcher.query(
          "select 1 from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'",
          [new URL(url).pathname.slice(1)],
        );
        return rows.length > 0 ? true : undefined;
      };
      // The first write waits on the lock, the others queue behind its batch.
      const sent = [
        { index: 0, chapter: 1, bookmarks: [2] },
        ...readers.flatMap((_, index) =>
          [1, 2, 3].map((chapter) => ({ index, chapter, bookmarks: [10, 11, 12] })),
        ),
      ];
      const queued = sent.flatMap(({ index, chapter, bookmarks }) =>
        bookmarks.map((bookmark) => ({
          index,
          chapter,
          bookmark,
          answer: saveBookmark(readers[index] as Client, chapter, bookmark).then(
            (response) => response.status,
            () => "reset" as const,
          ),
        })),
      );
      await waitFor(waiting, { what: "a batch waiting on the locked row" });
      const stopped = first.stop("SIGTERM");
      // The stop has begun once new connections are refused; then the lock goes.
      await waitFor(
        () =>
          fetch(`${first.url}/healthz`).then(
            () => undefined,
            () => true,
          ),
        {
          what: "the server refusing new connections",
        },
      );
      await holder.query("rollback");
      await holder.end();
      await watcher.end();
      const acknowledged = [{ index: 0, chapter: 1, bookmark: 1 }];
      for (const write of queued) {
        const status = await write.answer;
        // Answered (its batch committed) or never taken (sent after the stop began): never an error.
        expect([200, "reset"]).toContain(status);
        if (status === 200) acknowledged.push(write);
      }
      expect(await stopped).toBe(0);
      expect(first.output()).not.toMatch(/"level":(50|60)/);

      const second = spawnServer(env);
      try {
        await waitUntilReady(second);
        for (const { index, chapter, bookmark } of acknowledged) {
          const answer = await fetch(`${second.url}/reader/progress?chapter=${chapter}`, {
            headers: { cookie: (readers[index] as Client).cookieHeader },
          });
          const { progress } = (await answer.json()) as { progress: { bookmarks: number[] } | null };
          expect(progress?.bookmarks ?? [], `reader ${index}, chapter ${chapter}`).toContain(bookmark);
        }
      } finally {
        expect(await second.stop()).toBe(0);
      }
    }, 120_000);
  },
);
