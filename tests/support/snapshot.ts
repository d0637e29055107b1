import { sql } from "drizzle-orm";
import type { Database } from "#db/client.server";

/**
 * Every table of the app's schema with its rows as text, sorted: what a restore must give back. Not the
 * database epoch, which says which copy of the data the database holds and every restore moves (ADR 61).
 */
export async function snapshot(db: Database): Promise<Record<string, string[]>> {
  const { rows: tables } = (await db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename <> 'database_epoch' order by tablename`,
  )) as unknown as { rows: { tablename: string }[] };
  const result: Record<string, string[]> = {};
  for (const { tablename } of tables) {
    const { rows } = (await db.execute(
      sql`select row_to_json(t)::text as line from ${sql.identifier(tablename)} t`,
    )) as unknown as { rows: { line: string }[] };
    result[tablename] = rows.map((row) => row.line).sort();
  }
  return result;
}
