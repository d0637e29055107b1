import type { SessionUser } from "~/features/auth/session.server";
import { coveringPack, listCoinPacks } from "~/features/coins/queries.server";
import { CheckoutError, startCheckout } from "~/features/payments/checkout.server";
import { getOwnPayment } from "~/features/payments/queries.server";
import { buyCoinsSchema, paymentIdSchema } from "~/features/payments/schemas";
import { type Lock, loadChapterForReader, type PurchaseOffer, type ReturnedPayment } from "./access.server";

/**
 * What a signed-in reader short of coins sees on a locked chapter beyond the price: the smallest pack that
 * covers it ("buy and unlock"), and the result of a payment started from this chapter (`?payment=<id>`,
 * the reader's own only).
 */
export async function purchaseContext(
  lock: Extract<Lock, { kind: "coins" }>,
  userId: number,
  query: URLSearchParams,
): Promise<{ offer?: PurchaseOffer; payment?: ReturnedPayment }> {
  const pack = coveringPack(await listCoinPacks(), lock.balance, lock.coinsRequired);
  const id = paymentIdSchema.safeParse(query.get("payment") ?? undefined);
  const payment = id.success ? await getOwnPayment(userId, id.data) : undefined;
  return {
    ...(pack
      ? {
          offer: {
            packKey: pack.key,
            coins: pack.coins,
            priceCents: pack.priceCents,
            currency: pack.currency,
          },
        }
      : {}),
    ...(payment
      ? { payment: { status: payment.status, coins: payment.coins, cancelled: query.has("cancelled") } }
      : {}),
  };
}

/**
 * "Buy and unlock" from a locked chapter: opens a checkout for the pack, marked to unlock this chapter
 * once the provider confirms the payment (fulfil.server.ts). Only a chapter locked by its price, for this
 * reader, and a pack that covers what is missing: anything else would take money for nothing.
 */
export async function buyAndUnlock(
  user: SessionUser,
  chapterNumber: number,
  packKeyField: FormDataEntryValue | null,
  ip: string,
): Promise<{ url: string } | { error: string; status: number }> {
  const parsed = buyCoinsSchema.safeParse({ packKey: packKeyField });
  if (!parsed.success) return { error: "payments.errors.unknownItem", status: 400 };
  const chapter = await loadChapterForReader(chapterNumber, user);
  const lock = chapter?.lock;
  if (lock?.kind !== "coins") return { error: "reader.unlock.failed", status: 409 };
  const pack = (await listCoinPacks()).find((candidate) => candidate.key === parsed.data.packKey);
  const missing = lock.coinsRequired - lock.balance;
  if (!pack || missing <= 0 || pack.coins < missing)
    return { error: "payments.errors.unknownItem", status: 400 };
  try {
    const { url } = await startCheckout(
      user,
      { kind: "coins", packKey: pack.key, from: { chapter: chapterNumber, unlock: true } },
      { ip },
    );
    return { url };
  } catch (error) {
    if (error instanceof CheckoutError) return { error: error.messageKey, status: error.status };
    throw error;
  }
}
