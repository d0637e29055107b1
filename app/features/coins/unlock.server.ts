import { and, eq, gt, lte } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, chapterUnlocks } from "#db/schema";
import type { RequestMeta } from "~/lib/context";
import { book, InsufficientCoins } from "./ledger.server";

export type UnlockResult =
  | { ok: true; charged: boolean }
  | { ok: false; reason: "not-found" | "not-for-sale" | "insufficient-coins" };

/**
 * Unlocks a released paid chapter for good: the unlock row and the coin debit commit together or not at
 * all. UNIQUE(user, chapter) makes a second unlock a no-op that charges nothing; the balance CHECK and the
 * guarded debit make an overdraft impossible, also for concurrent requests.
 */
export async function unlockChapter(
  userId: number,
  chapterNumber: number,
  now = new Date(),
  meta?: RequestMeta,
): Promise<UnlockResult> {
  const [chapter] = await db()
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
  if (!chapter) return { ok: false, reason: "not-for-sale" };
  try {
    return await db().transaction(async (tx) => {
      const [unlock] = await tx
        .insert(chapterUnlocks)
        .values({ userId, chapterId: chapter.id, coinsSpent: chapter.coinsRequired })
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
    });
  } catch (error) {
    if (error instanceof InsufficientCoins) return { ok: false, reason: "insufficient-coins" };
    throw error;
  }
}
