import { desc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { coinLedger } from "#db/schema";

/** How many of the reader's coin entries /account shows, newest first. */
export const COIN_HISTORY_LIMIT = 30;

/** The reader's coin history, newest first: each change with its reason (an author's note included). */
export function listCoinHistory(userId: number, limit = COIN_HISTORY_LIMIT) {
  return db()
    .select({
      id: coinLedger.id,
      delta: coinLedger.delta,
      reason: coinLedger.reason,
      reference: coinLedger.reference,
      note: coinLedger.note,
      createdAt: coinLedger.createdAt,
    })
    .from(coinLedger)
    .where(eq(coinLedger.userId, userId))
    .orderBy(desc(coinLedger.createdAt), desc(coinLedger.id))
    .limit(limit);
}
