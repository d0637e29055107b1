import { and, eq, gt, lte } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { chapters, chapterUnlocks } from "#db/schema";
import { releaseTime } from "~/lib/clock.server";
import type { RequestMeta } from "~/lib/context";
import { book, InsufficientCoins } from "./ledger.server";

export type UnlockResult =
  | { ok: true; charged: boolean }
  | { ok: false; reason: "not-found" | "not-for-sale" | "insufficient-coins" };

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A released paid chapter, by number: the only kind coins unlock. */
export async function forSale(database: Database | Tx, chapterNumber: number, now: Date) {
  const [chapter] = await database
    .select({ id: chapters.id, coinsRequired: chapters.coinsRequired })
    .from(chapters)
    .where(
      and(
        eq(chapters.number, chapterNumber),
        eq(chapters.status, "published"),
        lte(chapters.releaseAt, now),
        gt(chapters.coinsRequired, 0),
      ),
    );
  return chapter;
}

/**
 * The unlock row and the coin debit, inside the caller's transaction. UNIQUE(user, chapter) makes a second
 * unlock a no-op that charges nothing; the balance CHECK and the guarded debit make an overdraft impossible.
 * Throws InsufficientCoins (the caller's transaction then rolls back).
 */
export async function unlockIn(
  tx: Tx,
  userId: number,
  chapterNumber: number,
  chapter: { id: number; coinsRequired: number },
  meta?: RequestMeta,
  /** An automatic unlock (ADR 90): marked, and dated by the release clock its daily cap counts by. */
  auto?: { at: Date },
) {
  // The chapter row is locked (as the author's deletion locks it: content/chapter-editing.server.ts): a chapter
  // deleted meanwhile is not for sale, rather than a foreign-key error.
  const [still] = await tx
    .select({ id: chapters.id })
    .from(chapters)
    .where(eq(chapters.id, chapter.id))
    .for("share");
  if (!still) return { ok: false, reason: "not-for-sale" } as const;
  const [unlock] = await tx
    .insert(chapterUnlocks)
    .values({
      userId,
      chapterId: chapter.id,
      coinsSpent: chapter.coinsRequired,
      ...(auto ? { auto: true, createdAt: auto.at } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: chapterUnlocks.id });
  if (!unlock) return { ok: true, charged: false } as const;
  await book(
    tx,
    {
      userId,
      delta: -chapter.coinsRequired,
      reason: "unlock",
      reference: `chapter:${chapterNumber}`,
      idempotencyKey: `unlock:${userId}:${chapter.id}`,
    },
    meta,
  );
  return { ok: true, charged: true } as const;
}

/** Unlocks a released paid chapter for good: the unlock row and the coin debit commit together or not at all. */
export async function unlockChapter(
  userId: number,
  chapterNumber: number,
  now = releaseTime(),
  meta?: RequestMeta,
): Promise<UnlockResult> {
  const chapter = await forSale(db(), chapterNumber, now);
  if (!chapter) return { ok: false, reason: "not-for-sale" };
  try {
    return await db().transaction((tx) => unlockIn(tx, userId, chapterNumber, chapter, meta));
  } catch (error) {
    if (error instanceof InsufficientCoins) return { ok: false, reason: "insufficient-coins" };
    throw error;
  }
}

/**
 * "Buy and unlock": the unlock inside the transaction that books a confirmed purchase. It runs in a
 * savepoint, so a chapter that is no longer for sale, or dearer than the coins now held, leaves the
 * purchase booked and the coins with the reader instead of refusing the provider's confirmation.
 */
export async function unlockWithinPurchase(
  tx: Tx,
  userId: number,
  chapterNumber: number,
  now: Date,
  meta?: RequestMeta,
): Promise<UnlockResult> {
  const chapter = await forSale(tx, chapterNumber, now);
  if (!chapter) return { ok: false, reason: "not-for-sale" };
  try {
    return await tx.transaction((savepoint) => unlockIn(savepoint, userId, chapterNumber, chapter, meta));
  } catch (error) {
    if (error instanceof InsufficientCoins) return { ok: false, reason: "insufficient-coins" };
    throw error;
  }
}
