import { and, eq, gt, max } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { discordLinks, sessionEvents } from "#db/schema";
import { syncReader } from "./sync.server";

/**
 * The immediate sync: a change of tier is a reader event that touches the kept session (payments, membership
 * grants and subscriptions write one, ADR 53/79, whichever code path made the change). Linked readers with
 * such events since the last look are synced at once, instead of waiting for the reconcile job's turn.
 * Other events of that kind (a sign-in) cost one sync that finds nothing to change.
 */

/** The newest reader event now: where following starts. */
export async function latestEvent(database: Database = db()): Promise<number> {
  const [row] = await database.select({ newest: max(sessionEvents.id) }).from(sessionEvents);
  return Number(row?.newest ?? 0);
}

/** Syncs the linked readers with session-touching events after `after`; returns the new position. */
export async function syncChangedReaders(
  after: number,
  options: { now?: Date; database?: Database; limit?: number } = {},
): Promise<number> {
  const database = options.database ?? db();
  const rows = await database
    .select({ id: sessionEvents.id, userId: sessionEvents.userId, linked: discordLinks.userId })
    .from(sessionEvents)
    .leftJoin(discordLinks, eq(discordLinks.userId, sessionEvents.userId))
    .where(and(gt(sessionEvents.id, after), eq(sessionEvents.touchesSession, true)))
    .orderBy(sessionEvents.id)
    .limit(options.limit ?? 500);
  const readers = new Set(rows.flatMap((row) => (row.linked === null ? [] : [row.userId])));
  for (const userId of readers) await syncReader(userId, options);
  return rows.at(-1)?.id ?? after;
}
