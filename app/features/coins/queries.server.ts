import { asc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, chapterUnlocks, coinPacks } from "#db/schema";
import { memoByRevision } from "~/features/site/revision.server";

/**
 * The coin packs on sale, in the author's order: read once per content revision (an edit of the packs moves
 * it), since every coin-locked chapter page offers one.
 */
export const listCoinPacks = memoByRevision(() =>
  db()
    .select({
      key: coinPacks.key,
      coins: coinPacks.coins,
      priceCents: coinPacks.priceCents,
      currency: coinPacks.currency,
      description: coinPacks.description,
    })
    .from(coinPacks)
    .orderBy(asc(coinPacks.sortOrder), asc(coinPacks.coins)),
);

/** The smallest pack that brings a balance up to a price, if any pack does. */
export function coveringPack<P extends { coins: number }>(packs: P[], balance: number, price: number) {
  const missing = price - balance;
  if (missing <= 0) return undefined;
  return packs.filter((pack) => pack.coins >= missing).sort((a, b) => a.coins - b.coins)[0];
}

/** The numbers of the chapters a reader unlocked with coins. */
export async function unlockedChapterNumbers(userId: number): Promise<Set<number>> {
  const rows = await db()
    .select({ number: chapters.number })
    .from(chapterUnlocks)
    .innerJoin(chapters, eq(chapters.id, chapterUnlocks.chapterId))
    .where(eq(chapterUnlocks.userId, userId));
  return new Set(rows.map((row) => row.number));
}
