import { asc } from "drizzle-orm";
import { db } from "#db/client.server";
import { coinPacks } from "#db/schema";
import { type AdminActor, rowEditing } from "~/features/audit/row-editing.server";
import type { CoinPackForm } from "./coin-pack-form";

/** Every pack in the order /coins shows them. */
export function listCoinPacksForAdmin() {
  return db().select().from(coinPacks).orderBy(asc(coinPacks.sortOrder), asc(coinPacks.coins));
}

const written = ({ base: _base, key: _key, order, ...fields }: CoinPackForm) => ({
  ...fields,
  sortOrder: order,
});

/**
 * Coin packs from the admin ("coinPack.create|update|delete" in the audit log, all of the pack). The key is
 * set once (the primary key decides, races included). Nothing refers to a pack by a foreign key: a payment
 * copies the price, the coins and the key (`payments.coin_pack_key`, plain text) when its checkout starts, so
 * saving or deleting a pack changes no payment, past or pending.
 */
const packs = rowEditing(
  {
    subject: "coinPack",
    nameOf: (row) => row.key,
    unique: "coin_packs_pkey",
    idOf: (row) => row.key,
    logged: (row) => row,
    digested: (row) => row,
  },
  coinPacks,
  coinPacks.key,
  {
    written,
    created: (input: CoinPackForm) => (input.key ? { ...written(input), key: input.key } : undefined),
  },
);

export const getCoinPackForEdit = (key: string) => packs.forEdit(key);
export const createCoinPack = (input: CoinPackForm, actor: AdminActor) => packs.create(input, actor);
export const saveCoinPack = (key: string, input: CoinPackForm, actor: AdminActor) =>
  packs.save(key, input, actor);
export const deleteCoinPack = (key: string, actor: AdminActor) => packs.remove(key, actor);
