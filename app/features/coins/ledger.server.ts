import { eq, sql } from "drizzle-orm";
import type { Database } from "#db/client.server";
import { coinLedger, type ledgerReasons, users } from "#db/schema";
import type { RequestMeta } from "~/lib/context";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type LedgerEntry = {
  userId: number;
  delta: number;
  reason: (typeof ledgerReasons)[number];
  reference?: string;
  /** The same key never books twice: a retried request is a no-op. */
  idempotencyKey: string;
  /** An author's adjustment from the admin: who made it and the reason they gave. */
  actorId?: number;
  note?: string;
};

export class InsufficientCoins extends AppError {
  override name = "InsufficientCoins";
  constructor(message?: string) {
    super("insufficient-coins", 409, "reader.unlock.insufficient", message);
  }
}

/**
 * Appends a ledger entry and moves the cached balance in the same transaction. Returns false when the
 * idempotency key was booked before. The database's CHECK (coin_balance >= 0) is the last word on overdrafts.
 */
export async function book(tx: Tx, entry: LedgerEntry, meta?: RequestMeta): Promise<boolean> {
  const inserted = await tx
    .insert(coinLedger)
    .values(entry)
    .onConflictDoNothing({ target: coinLedger.idempotencyKey })
    .returning({ id: coinLedger.id });
  if (inserted.length === 0) return false;
  const [updated] = await tx
    .update(users)
    .set({ coinBalance: sql`${users.coinBalance} + ${entry.delta}` })
    .where(sql`${users.id} = ${entry.userId} and ${users.coinBalance} + ${entry.delta} >= 0`)
    .returning({ balance: users.coinBalance });
  if (!updated) throw new InsufficientCoins(`User ${entry.userId} cannot spend ${-entry.delta} coins`);
  logger.info(
    {
      event: "ledger.entry",
      requestId: meta?.requestId,
      ip: meta?.ip,
      userId: entry.userId,
      delta: entry.delta,
      reason: entry.reason,
      reference: entry.reference,
    },
    "ledger entry",
  );
  return true;
}

/** The balance recomputed from the ledger (the cached column must always equal it). */
export async function ledgerBalance(database: Database, userId: number): Promise<number> {
  const [row] = await database
    .select({ total: sql<number>`coalesce(sum(${coinLedger.delta}), 0)`.mapWith(Number) })
    .from(coinLedger)
    .where(eq(coinLedger.userId, userId));
  return row?.total ?? 0;
}
