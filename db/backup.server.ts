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

/**
 * Replaces every row of the database (already migrated to this release's schema) by the backup's, in one
 * transaction: the database is either fully restored or unchanged. Columns the backup lacks (an older
 * release's backup) take their defaults. The content revision ends above both the old and the restored
 * value, so no server keeps pages of the content it had before.
 */
export async function restoreBackup(handle: DatabaseHandle, lines: AsyncIterable<string>): Promise<number> {
  let count = 0;
  await handle.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    const tables = new Set(await tablesInOrder(db));
    const [before] = await rows<{ revision: number }>(
      db,
      sql`select coalesce(max(revision), 0)::int as revision from content_revision`,
    );
    const all = sql.join(
      [...tables].map((name) => sql.identifier(name)),
      sql`, `,
    );
    await db.execute(sql`truncate ${all} restart identity cascade`);

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

    let header = true;
    let skipping = false;
    for await (const line of lines) {
      if (line.trim() === "") continue;
      const value = parseLine(line);
      if (header) {
        if (value.backup !== BACKUP_MARK || value.version !== VERSION)
          throw new BackupFormatError("Not a backup written by `npm run db -- backup`");
        header = false;
      } else if (typeof value.table === "string" && Object.keys(value).length === 1) {
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
    if (header) throw new BackupFormatError("The backup is empty");

    await resetSequences(db);
    await db.execute(
      sql`update content_revision set revision = greatest(revision, ${before?.revision ?? 0}) + 1`,
    );
    await moveDatabaseEpoch(db);
  });
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
