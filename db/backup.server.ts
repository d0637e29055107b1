import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "./client.server";
import { moveDatabaseEpoch } from "./epoch.server";

/**
 * The portable backup (ADR 14): every row of every table in the `public` schema, as JSON lines, read in one
 * repeatable-read transaction (one snapshot, so consistent while the site writes). It restores into PGlite
 * and into PostgreSQL alike, because both get the schema from the same migrations and the rows go back
 * through `json_populate_recordset`, which casts every value to its column's type.
 *
 *   {"backup":"crimson-covenant","version":1,"database":"pglite","createdAt":"…"}
 *   {"table":"users"}
 *   {"id":1,"username":"…",…}        one line per row, as row_to_json writes it
 */
export const BACKUP_MARK = "crimson-covenant";
const VERSION = 1;
const BATCH = 500;
// FETCH takes its count as a literal, not a parameter: the text is fixed, its number is BATCH's.
const fetchBatch = sql`fetch 500 from backup_rows`;

type Row = Record<string, unknown>;

async function rows<T extends Row>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Notices, not data: `session_events` tells running servers whose kept sessions and pages to forget (ADRs 49,
 * 51, 53) and is emptied after ten minutes; `content_changes` tells them which kept pages a content change
 * retires (ADR 54; a restore's move of the revision has no row, so it retires everything). A backup leaves them out, a restore skips it in an older backup
 * (restoring rows writes new notices, which the restored rows' ids would clash with) and leaves it as it is.
 * `database_epoch` says which copy of the data the database holds: a restore moves it (ADR 61).
 */
const NOTICES = new Set(["session_events", "content_changes", "database_epoch"]);

/** The tables of the app's schema, each after the tables its foreign keys point to (restore order). */
async function tablesInOrder(db: Database): Promise<string[]> {
  const tables = (
    await rows<{ name: string }>(
      db,
      sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).map((row) => row.name);
  const references = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
        from pg_constraint c join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname = 'public' and c.conrelid <> c.confrelid`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const { child, parent } of references) if (child === table) place(parent.replaceAll('"', ""), path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) place(table, new Set());
  return ordered.filter((table) => !NOTICES.has(table));
}

/** Writes the backup line by line through `write`; returns the number of rows written. */
export async function writeBackup(handle: DatabaseHandle, write: (line: string) => Promise<void> | void) {
  let count = 0;
  await handle.db.transaction(
    async (tx) => {
      const db = tx as unknown as Database;
      await write(
        JSON.stringify({
          backup: BACKUP_MARK,
          version: VERSION,
          database: handle.kind,
          createdAt: new Date().toISOString(),
        }),
      );
      for (const table of await tablesInOrder(db)) {
        await write(JSON.stringify({ table }));
        // A cursor keeps memory to one batch however large the table.
        await db.execute(
          sql`declare backup_rows no scroll cursor for select row_to_json(t)::text as line from ${sql.identifier(table)} t`,
        );
        for (;;) {
          const batch = await rows<{ line: string }>(db, fetchBatch);
          for (const { line } of batch) await write(line);
          count += batch.length;
          if (batch.length < BATCH) break;
        }
        await db.execute(sql`close backup_rows`);
      }
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  return count;
}

export class BackupFormatError extends Error {
  override name = "BackupFormatError";
}

/** The site kept a table in use through every try: the restore changed nothing and can be run again. */
export class RestoreBusyError extends Error {
  override name = "RestoreBusyError";
}

/**
 * How long the restore waits for the tables' locks on one try, and how many tries. Below PostgreSQL's
 * deadlock_timeout (1 s): a request that waits behind the restore while holding a table the restore still
 * needs sees the restore give way, never a deadlock of its own (40P01).
 */
export const LOCK_WAIT = "500ms";
export const LOCK_TRIES = 20;
/**
 * A restore whose process stops reading (stopped, hung) is ended by the server after this long, which rolls
 * it back and frees every table, rather than holding them "idle in transaction" for good.
 */
export const IDLE_LIMIT = "60s";

/** lock_not_available (the lock wait above ran out) and deadlock_detected: nothing was changed yet. */
function isLockConflict(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === "55P03" || code === "40P01") return true;
    current = cause;
  }
  return false;
}

/**
 * Replaces every row of the database (already migrated to this release's schema) by the backup's, in one
 * transaction: the database is either fully restored or unchanged. Columns the backup lacks (an older
 * release's backup) take their defaults. The content revision ends above both the old and the restored
 * value, so no server keeps pages of the content it had before.
 *
 * The header is read before anything is locked. Then every table is locked at once, in one statement and
 * one order, before the first row is touched: with instances still serving (PostgreSQL), a request holding
 * a table makes this try give up after a moment and start again, instead of a deadlock halfway through.
 */
export async function restoreBackup(handle: DatabaseHandle, lines: AsyncIterable<string>): Promise<number> {
  const iterator = lines[Symbol.asyncIterator]();
  try {
    const header = await nextValue(iterator);
    if (!header) throw new BackupFormatError("The backup is empty");
    if (header.backup !== BACKUP_MARK || header.version !== VERSION)
      throw new BackupFormatError("Not a backup written by `npm run db -- backup`");
    return await replaceAll(handle, iterator);
  } finally {
    await iterator.return?.();
  }
}

async function replaceAll(handle: DatabaseHandle, iterator: AsyncIterator<string>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    let locked = false;
    try {
      return await handle.db.transaction(async (tx) => {
        const db = tx as unknown as Database;
        await db.execute(sql.raw(`set local lock_timeout = '${LOCK_WAIT}'`));
        await db.execute(sql.raw(`set local idle_in_transaction_session_timeout = '${IDLE_LIMIT}'`));
        const tables = await tablesInOrder(db);
        await lockTables(db, tables);
        locked = true;
        return replaceRows(db, new Set(tables), iterator);
      });
    } catch (error) {
      if (locked || !isLockConflict(error)) throw error;
      if (attempt >= LOCK_TRIES)
        throw new RestoreBusyError(
          "The running site kept the tables in use: nothing was restored or changed; run the restore again",
        );
    }
  }
}

async function lockTables(db: Database, tables: string[]): Promise<void> {
  if (tables.length === 0) return;
  const all = sql.join(
    tables.map((name) => sql.identifier(name)),
    sql`, `,
  );
  await db.execute(sql`lock table ${all} in access exclusive mode`);
}

/** The next non-blank line's value, or undefined at the end. */
async function nextValue(iterator: AsyncIterator<string>): Promise<Row | undefined> {
  for (;;) {
    const next = await iterator.next();
    if (next.done) return undefined;
    if (next.value.trim() !== "") return parseLine(next.value);
  }
}

async function replaceRows(db: Database, tables: Set<string>, iterator: AsyncIterator<string>) {
  let count = 0;
  const [before] = await rows<{ revision: number }>(
    db,
    sql`select coalesce(max(revision), 0)::int as revision from content_revision`,
  );
  const all = sql.join(
    [...tables].map((name) => sql.identifier(name)),
    sql`, `,
  );
  // The sequences are moved past the restored rows below (resetSequences), not restarted here: restarting
  // one takes a lock on it that a request's nextval could hold.
  await db.execute(sql`truncate ${all} cascade`);

  let table: string | undefined;
  let batch: Row[] = [];
  const flush = async () => {
    if (!table || batch.length === 0) return;
    const columns = await insertableColumns(db, table, batch);
    const list = sql.join(
      columns.map((column) => sql.identifier(column)),
      sql`, `,
    );
    const target = sql.identifier(table);
    await db.execute(
      sql`insert into ${target} (${list}) overriding system value
          select ${list} from json_populate_recordset(null::${target}, ${JSON.stringify(batch)}::json)`,
    );
    count += batch.length;
    batch = [];
  };

  let skipping = false;
  for (let value = await nextValue(iterator); value; value = await nextValue(iterator)) {
    if (typeof value.table === "string" && Object.keys(value).length === 1) {
      await flush();
      skipping = NOTICES.has(value.table);
      if (!skipping && !tables.has(value.table))
        throw new BackupFormatError(`The backup has an unknown table ${value.table}`);
      table = skipping ? undefined : value.table;
    } else if (!skipping) {
      if (!table) throw new BackupFormatError("A row comes before any table");
      batch.push(value);
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();

  await resetSequences(db);
  await db.execute(
    sql`update content_revision set revision = greatest(revision, ${before?.revision ?? 0}) + 1`,
  );
  await moveDatabaseEpoch(db);
  return count;
}

function parseLine(line: string): Row {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Row;
  } catch {
    // Reported below.
  }
  throw new BackupFormatError(`Not a backup line: ${line.slice(0, 80)}`);
}

/** The batch's columns that the table has and accepts values for (not generated ones). */
async function insertableColumns(db: Database, table: string, batch: Row[]): Promise<string[]> {
  const present = new Set(batch.flatMap((row) => Object.keys(row)));
  const columns = await rows<{ name: string }>(
    db,
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
        order by ordinal_position`,
  );
  return columns.map((column) => column.name).filter((name) => present.has(name));
}

/** Moves every serial and identity sequence past the highest restored value. */
async function resetSequences(db: Database): Promise<void> {
  const owned = await rows<{ sequence: string; table: string; column: string }>(
    db,
    sql`select s.oid::regclass::text as sequence, t.relname as table, a.attname as column
        from pg_class s
        join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
        join pg_class t on t.oid = d.refobjid
        join pg_namespace n on n.oid = t.relnamespace
        join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
        where s.relkind = 'S' and n.nspname = 'public'`,
  );
  for (const { sequence, table, column } of owned) {
    await db.execute(
      sql`select setval(${sequence}::regclass, coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(table)}), 0) + 1, false)`,
    );
  }
}
