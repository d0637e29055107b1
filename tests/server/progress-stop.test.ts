import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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
