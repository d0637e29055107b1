import { sql } from "drizzle-orm";
import type { Database } from "./client.server";

/**
 * The database epoch as its followers compare it (ADR 61): the random value every restore writes afresh,
 * with the identity of the table that holds it, which a restore that drops and recreates the tables
 * (pg_restore --clean, by the CLI or by hand) changes by itself. Empty when the row is missing. A scalar
 * subquery, so a follower reads it in the same statement as its own position.
 */
export const databaseEpochValue = sql<string>`coalesce((select epoch::text || ' ' || tableoid::text from database_epoch where id = 1), '')`;

/**
 * Draws a new database epoch: called by every restore once the restored rows are in, so each running
 * instance forgets what it kept from the data before (sessions, pages, memoised content) at its next read,
 * even where the restore put the counters and ids it follows back to values it has seen.
 */
export async function moveDatabaseEpoch(db: Database): Promise<void> {
  await db.execute(sql.raw(MOVE_EPOCH));
}

/** The statement that draws a new epoch, also run at the end of pg_restore's transaction (scripts/db.ts). */
export const MOVE_EPOCH = `insert into database_epoch (id, epoch) values (1, gen_random_uuid())
  on conflict (id) do update set epoch = excluded.epoch`;
