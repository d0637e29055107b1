import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { BackupFormatError, restoreBackup, writeBackup } from "#db/backup.server";
import type { Database, DatabaseHandle } from "#db/client.server";
import { createAccount } from "~/features/auth/commands.server";
import { saveProgress } from "~/features/reader/queries.server";
import { type Driver, drivers, openTestDatabase } from "../support/database";
import { snapshot } from "../support/snapshot";

/**
 * The portable backup (db/backup.server.ts, ADR 14): back up, wipe, restore, and every table holds the same
 * rows again; a PGlite backup restores into PostgreSQL too. The CLI and pg_dump: tests/server/backup.test.ts.
 */
const opened: DatabaseHandle[] = [];
afterEach(async () => {
  for (const handle of opened.splice(0)) await handle.close();
});

async function open(driver: Driver, options?: { content: boolean }) {
  const handle = await openTestDatabase(driver, options);
  opened.push(handle);
  return handle;
}

/** Some of everything readers write, with text that needs quoting. */
async function addReaderData() {
  const id = await createAccount({ username: "o'brien", email: "ob@example.com", password: "a secret 1" });
  await saveProgress(id, 1, {
    scrollPosition: 0.25,
    paragraph: 3,
    completionPercentage: 25,
    readingTime: 40,
    completed: false,
    bookmarks: [2, 5],
    lastReadAt: "2026-11-20T10:00:00.000Z",
  });
  return id;
}

async function backupLines(handle: DatabaseHandle): Promise<string[]> {
  const lines: string[] = [];
  await writeBackup(handle, (line) => {
    lines.push(line);
  });
  return lines;
}

async function* iterate(lines: string[]) {
  yield* lines;
}

const revision = async (db: Database) =>
  (
    (await db.execute(sql`select revision from content_revision`)) as unknown as {
      rows: { revision: number }[];
    }
  ).rows[0]?.revision ?? 0;

describe.each(drivers)("backup and restore on %s", (driver) => {
  it("backs up, wipes, restores and gives back every table's rows", async () => {
    const handle = await open(driver);
    await addReaderData();
    const before = await snapshot(handle.db);
    expect(before.users?.length).toBeGreaterThan(0);
    expect(before.reading_progress?.length).toBe(1);
    const lines = await backupLines(handle);

    const revisionBefore = await revision(handle.db);
    await handle.db.execute(sql`truncate users, chapters, volumes restart identity cascade`);
    expect((await snapshot(handle.db)).users).toEqual([]);

    // The session events are notices for running servers, not data: left out (db/backup.server.ts).
    expect(before.session_events?.length).toBeGreaterThan(0);
    expect(lines).not.toContain(JSON.stringify({ table: "session_events" }));
    // Nor are the content changes (ADR 54): the restore's move of the revision has none, which retires all.
    expect(before.content_changes?.length).toBeGreaterThan(0);
    expect(lines).not.toContain(JSON.stringify({ table: "content_changes" }));
    // A backup of an older release has them: skipped, whatever their ids.
    const older = [...lines, JSON.stringify({ table: "session_events" }), ...(before.session_events ?? [])];
    const restored = await restoreBackup(handle, iterate(older));
    expect(restored).toBe(lines.length - 1 - (Object.keys(before).length - 2));
    const after = await snapshot(handle.db);
    const { content_revision: revisionRows, session_events: _notices, content_changes: _c, ...rest } = after;
    const { content_revision: _, session_events: _noticesBefore, content_changes: _cb, ...expected } = before;
    expect(rest).toEqual(expected);
    expect(revisionRows).toHaveLength(1);
    // Kept pages of the content before the restore are never served again.
    expect(await revision(handle.db)).toBeGreaterThan(revisionBefore);

    // Sequences continue after the restored rows: a new account gets a fresh id.
    const newId = await createAccount({
      username: "after",
      email: "after@example.com",
      password: "a secret 2",
    });
    expect(before.users?.some((row) => JSON.parse(row).id === newId)).toBe(false);
  });

  it("refuses what is not a backup and leaves the database as it was", async () => {
    const handle = await open(driver);
    const before = await snapshot(handle.db);
    await expect(restoreBackup(handle, iterate(['{"hello":1}']))).rejects.toThrow(BackupFormatError);
    await expect(
      restoreBackup(
        handle,
        iterate([JSON.stringify({ backup: "crimson-covenant", version: 1 }), "{not json"]),
      ),
    ).rejects.toThrow(BackupFormatError);
    await expect(
      restoreBackup(
        handle,
        iterate([JSON.stringify({ backup: "crimson-covenant", version: 1 }), '{"table":"pg_authid"}']),
      ),
    ).rejects.toThrow(/unknown table/);
    expect(await snapshot(handle.db)).toEqual(before);
  });
});

describe.runIf(drivers.includes("postgres"))("a PGlite backup", () => {
  it("restores into PostgreSQL", async () => {
    const source = await open("pglite");
    await addReaderData();
    const lines = await backupLines(source);
    const expected = await snapshot(source.db);
    const target = await open("postgres", { content: false });
    await restoreBackup(target, iterate(lines));
    const {
      content_revision: _,
      session_events: _notices,
      content_changes: _c,
      ...rest
    } = await snapshot(target.db);
    const {
      content_revision: __,
      session_events: _noticesBefore,
      content_changes: _cb,
      ...wanted
    } = expected;
    expect(rest).toEqual(wanted);
  });
});
