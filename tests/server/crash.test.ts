import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client, registerReader, saveBookmark } from "../support/http";
import { waitFor } from "../support/poll";
import { freePort, spawnServer, waitUntilReady } from "../support/server";

/**
 * kill -9 under writes on PGlite (ADR 14): every write the server acknowledged is there after a restart on
 * the same data directory, and the restart is clean (the dead server's lock and admin socket are taken over).
 * The connection drop on PostgreSQL: tests/server/database-outage.test.ts.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-crash-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("kill -9 under writes on PGlite", () => {
  it("loses no acknowledged write and restarts clean", async () => {
    const port = String(await freePort());
    const first = spawnServer({ PORT: port, DATA_DIR: dataDir });
    await waitUntilReady(first);
    const reader = new Client(first.url);
    await registerReader(reader, dataDir, "crash");

    // Each bookmark is one write; bookmarks are merged as a set, so every acknowledged one must stay.
    const acknowledged = new Map<number, number[]>();
    let running = true;
    const writers = Array.from({ length: 10 }, async (_, index) => {
      const chapter = index + 1;
      acknowledged.set(chapter, []);
      for (let bookmark = 1; running && bookmark < 900; bookmark++) {
        const response = await saveBookmark(reader, chapter, bookmark).catch(() => undefined);
        if (response?.status === 200) acknowledged.get(chapter)?.push(bookmark);
        else break;
      }
    });
    // Killed once the writers have had writes acknowledged, so that the kill lands among writes in flight.
    const total = () => [...acknowledged.values()].reduce((sum, list) => sum + list.length, 0);
    await waitFor(() => (total() >= 20 ? true : undefined), { what: "20 acknowledged writes" });
    first.child.kill("SIGKILL");
    await first.exited;
    running = false;
    await Promise.all(writers);
    expect(total()).toBeGreaterThanOrEqual(20);

    const second = spawnServer({ PORT: port, DATA_DIR: dataDir });
    try {
      await waitUntilReady(second);
      for (const [chapter, bookmarks] of acknowledged) {
        const response = await reader.get(`/reader/progress?chapter=${chapter}`);
        expect(response.status).toBe(200);
        const { progress } = (await response.json()) as { progress: { bookmarks: number[] } | null };
        const kept = new Set(progress?.bookmarks ?? []);
        expect(bookmarks.filter((bookmark) => !kept.has(bookmark))).toEqual([]);
      }
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect(second.output()).not.toMatch(/"level":(50|60)/);
    // Two server starts and a registration: more than the default 30 s on a busy machine.
  }, 90_000);
});
