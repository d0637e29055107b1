import { z } from "zod";
import { digestField, optionalInteger, requiredInteger, slugText } from "~/lib/form-fields";

/**
 * Limits of the coin pack form. The key is what /coins posts to buy a pack (`buyCoinsSchema`: at most 40 of
 * a-z, 0-9 and "-"). A price from 0.50, the least a card payment may be at the provider, to 1,000.00, the
 * most the site takes in one payment (the gift's bound, GIFT_MAX_CENTS).
 */
export const COIN_PACK_LIMITS = {
  key: 40,
  coins: 100_000,
  minCents: 50,
  maxCents: 100_000,
  description: 300,
  order: 1000,
} as const;

/** Currencies a pack may be priced in: each counts its price in hundredths, as `priceCents` does. */
export const coinPackCurrencies = ["USD", "EUR", "GBP", "CAD", "AUD"] as const;

/**
 * The coin pack form (browser and action). `key` names the pack for good (new packs only: a payment keeps
 * the key of the pack it bought); the description is the one line /coins shows under the price.
 */
export const coinPackSchema = z.object({
  // "new" is the address of the form for a new pack, so no pack may be called so.
  key: slugText(COIN_PACK_LIMITS.key, "admin.coins.errors.key")
    .refine((key) => key !== "new", { error: "admin.coins.errors.key" })
    .optional(),
  coins: requiredInteger(1, COIN_PACK_LIMITS.coins, "admin.coins.errors.coins"),
  priceCents: requiredInteger(
    COIN_PACK_LIMITS.minCents,
    COIN_PACK_LIMITS.maxCents,
    "admin.coins.errors.price",
  ),
  currency: z.enum(coinPackCurrencies, { error: "admin.coins.errors.currency" }),
  description: z
    .string({ error: "admin.coins.errors.description" })
    .max(COIN_PACK_LIMITS.description * 2, { error: "admin.coins.errors.description" })
    .transform((text) => text.replace(/\s+/g, " ").trim())
    .refine((text) => text.length <= COIN_PACK_LIMITS.description, {
      error: "admin.coins.errors.description",
    }),
  order: optionalInteger(
    -COIN_PACK_LIMITS.order,
    COIN_PACK_LIMITS.order,
    "admin.coins.errors.order",
  ).transform((value) => value ?? 0),
  base: digestField.optional(),
});

export type CoinPackForm = z.output<typeof coinPackSchema>;
