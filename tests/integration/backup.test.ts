import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { BackupFormatError, RestoreBusyError, restoreBackup, writeBackup } from "#db/backup.server";
import { type Database, type DatabaseHandle, openDatabase, setDatabase } from "#db/client.server";
import { isTransactionConflict } from "#db/unavailable";
import { createAccount } from "~/features/auth/commands.server";
import { saveProgress } from "~/features/reader/queries.server";
import { type Driver, drivers, openTestDatabase } from "../support/database";
import { waitFor } from "../support/poll";
import { createPostgresDatabase } from "../support/postgres";
import { snapshot } from "../support/snapshot";

/**
 * The portable backup (db/backup.server.ts, ADR 14): back up, wipe, restore, and every table holds the same
 * rows again; a PGlite backup restores into PostgreSQL too. The CLI and pg_dump: tests/server/backup.test.ts.
 */
const opened: DatabaseHandle[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const handle of opened.splice(0)) await handle.close();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
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

/**
 * A PostgreSQL database with reader data, its backup, and a plain connection of its own (another instance's
 * transaction, or an operator's psql), closed and dropped after the test.
 */
async function postgresWithBackup() {
  const database = await createPostgresDatabase();
  cleanups.push(database.drop);
  const handle = await openDatabase({ kind: "postgres", url: database.url });
  cleanups.push(() => handle.close());
  await handle.migrate();
  setDatabase(handle);
  await addReaderData();
  const lines = await backupLines(handle);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  cleanups.push(() => client.end());
  return { handle, lines, client };
}

/**
 * Whether another connection of this database waits for a lock on `table` (a restore that has started and
 * holds some of the tables, or a transaction of the test). Of this database only: the other test files' races
 * run beside it on the same server.
 */
async function waitsFor(client: pg.Client, table: string): Promise<true | undefined> {
  const { rows } = await client.query(
    `select 1 from pg_locks
     where not granted and pid <> pg_backend_pid() and locktype = 'relation' and relation = $1::regclass
       and database = (select oid from pg_database where datname = current_database())`,
    [table],
  );
  return rows.length > 0 ? true : undefined;
}

describe.runIf(drivers.includes("postgres"))("a restore into PostgreSQL", () => {
  it("that fails on a bad line midway leaves every row as it was and holds no lock", async () => {
    const { handle, lines, client } = await postgresWithBackup();
    await handle.db.execute(sql`update users set username = 'renamed'`);
    const before = await snapshot(handle.db);
    // The bad line comes after the tables were emptied and some rows written back.
    const broken = [...lines.slice(0, -1), "{not json", ...lines.slice(-1)];
    await expect(restoreBackup(handle, iterate(broken))).rejects.toThrow(BackupFormatError);
    // Another connection reads at once: with a lock left behind, the lock timeout would end it.
    await client.query("set lock_timeout = '200ms'");
    const { rows } = await client.query("select username from users");
    expect(rows).toEqual([{ username: "renamed" }]);
    expect(await snapshot(handle.db)).toEqual(before);
  });

  it("gives way to a request that holds a table it needs, then restores: no deadlock on either side", async () => {
    const { handle, lines, client } = await postgresWithBackup();
    const before = await snapshot(handle.db);
    await handle.db.execute(sql`delete from reading_progress`);
    // A request's transaction holds a table the restore locks late, then needs one it locks early: the
    // order that deadlocked a restore and the site's writes.
    await client.query("begin");
    await client.query("lock table reading_progress in row exclusive mode");
    const restoring = restoreBackup(handle, iterate(lines));
    await waitFor(() => waitsFor(client, "reading_progress"), {
      what: "the restore to wait for reading_progress",
    });
    await client.query("update users set username = username");
    await client.query("commit");
    await restoring;
    const {
      content_revision: _,
      session_events: _e,
      content_changes: _c,
      ...after
    } = await snapshot(handle.db);
    const { content_revision: __, session_events: _eb, content_changes: _cb, ...wanted } = before;
    expect(after).toEqual(wanted);
  });

  it("that cannot have the tables ends with a plain message and changes nothing", async () => {
    const { handle, lines, client } = await postgresWithBackup();
    await handle.db.execute(sql`update users set username = 'renamed'`);
    await client.query("begin");
    await client.query("lock table reading_progress in row exclusive mode");
    await expect(restoreBackup(handle, iterate(lines))).rejects.toThrow(RestoreBusyError);
    await client.query("commit");
    const { rows } = await client.query("select username from users");
    expect(rows).toEqual([{ username: "renamed" }]);
  });

  it("a real deadlock is a transaction conflict (answered 503, server/database-outage.ts)", async () => {
    const { handle, client } = await postgresWithBackup();
    await client.query("begin");
    await client.query("lock table reading_progress in row exclusive mode");
    const other = handle.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users in row exclusive mode`);
      await tx.execute(sql`lock table reading_progress in share mode`);
    });
    const settled = other.then(
      () => undefined,
      (error: unknown) => error,
    );
    // Holding users, it waits for reading_progress; only then does the test's connection ask for users.
    await waitFor(() => waitsFor(client, "reading_progress"), { what: "the other transaction to wait" });
    const mine = await client.query("lock table users in share mode").then(
      () => undefined,
      (error: unknown) => error,
    );
    await client.query("rollback");
    const error = mine ?? (await settled);
    expect(
      (error as { code?: string } | undefined)?.code ?? (error as { cause?: { code?: string } })?.cause?.code,
    ).toBe("40P01");
    expect(isTransactionConflict(error)).toBe(true);
  });
});
