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
