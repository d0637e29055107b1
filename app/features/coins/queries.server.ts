import { asc } from "drizzle-orm";
import { db } from "#db/client.server";
import { coinPacks } from "#db/schema";

/** The coin packs on sale, in the author's order. */
export async function listCoinPacks() {
  return db()
    .select({
      key: coinPacks.key,
      coins: coinPacks.coins,
      priceCents: coinPacks.priceCents,
      currency: coinPacks.currency,
      description: coinPacks.description,
    })
    .from(coinPacks)
    .orderBy(asc(coinPacks.sortOrder), asc(coinPacks.coins));
}

/** The smallest pack that brings a balance up to a price, if any pack does. */
export function coveringPack<P extends { coins: number }>(packs: P[], balance: number, price: number) {
  const missing = price - balance;
  if (missing <= 0) return undefined;
  return packs.filter((pack) => pack.coins >= missing).sort((a, b) => a.coins - b.coins)[0];
}
