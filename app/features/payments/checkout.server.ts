import { and, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import {
  coinPacks,
  payments,
  type SupporterChoice,
  subscriptions,
  supportTiers,
  type TierKey,
  users,
} from "#db/schema";
import { consume, type Rule } from "~/features/auth/throttle.server";
import { GIFT_MAX_CENTS, GIFT_MIN_CENTS } from "~/features/fundraiser/gift";
import { grantsTier } from "~/features/membership/subscription-access";
import { getEnv } from "~/lib/env.server";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import type { CheckoutRequest } from "./provider.server";
import { getProvider } from "./providers.server";

/** What a reader may buy. Prices and what is granted are read from the database, never from the request. */
export type CheckoutItem =
  | { kind: "coins"; packKey: string; from?: ChapterOrigin }
  | { kind: "subscription"; tierKey: TierKey; supporter?: SupporterChoice }
  | { kind: "gift"; amountCents: number; currency: string; supporter?: SupporterChoice };

/** A one-off gift's bounds, in cents: the gift form's (docs/product-rules.md "Fundraiser"). */
export { GIFT_MAX_CENTS, GIFT_MIN_CENTS };

/** The chapter a coin purchase started from (the payer returns there), and whether to unlock it once paid. */
export type ChapterOrigin = { chapter: number; unlock: boolean };

export class CheckoutError extends AppError {
  override name = "CheckoutError";
  declare readonly code: "unknown-item" | "throttled" | "provider-unavailable" | "already-subscribed";
  constructor(code: CheckoutError["code"], status: number, messageKey: string) {
    super(code, status, messageKey);
  }
}

/** Checkouts started per IP per hour (docs/security-model.md S2). */
function checkoutRule(): Rule {
  return { limit: getEnv().CHECKOUT_LIMIT_PER_HOUR, windowSeconds: 60 * 60, blockSeconds: 10 * 60 };
}

/**
 * An order's page as the provider returns the payer to it: `?returned` marks the return from the provider, the one
 * visit that thanks them (a later visit, or one after a refund, shows the order as it stands).
 */
export const orderReturnPath = (orderId: number) => `/orders/${orderId}?returned`;

/** Where the reader lands after paying (or not): the page that shows the payment's result. */
export function returnPath(payment: {
  id: number;
  kind: string;
  chapterNumber?: number | null;
  orderId?: number | null;
}): string {
  if (payment.orderId) return orderReturnPath(payment.orderId);
  if (payment.kind === "subscription" || payment.kind === "gift")
    return `/fundraiser/thanks?payment=${payment.id}`;
  if (payment.chapterNumber) return `/chapter/${payment.chapterNumber}?payment=${payment.id}`;
  return `/coins?payment=${payment.id}`;
}

async function priceOf(item: CheckoutItem) {
  if (item.kind === "coins") {
    const [pack] = await db().select().from(coinPacks).where(eq(coinPacks.key, item.packKey));
    if (!pack) return undefined;
    return {
      kind: "coins" as const,
      amountCents: pack.priceCents,
      currency: pack.currency,
      description: `${pack.coins} coins`,
      coins: pack.coins,
      coinPackKey: pack.key,
      chapterNumber: item.from?.chapter ?? null,
      unlockChapter: item.from?.unlock ?? false,
    };
  }
  if (item.kind === "gift") {
    const { amountCents, currency } = item;
    if (!Number.isInteger(amountCents) || amountCents < GIFT_MIN_CENTS || amountCents > GIFT_MAX_CENTS)
      return undefined;
    if (currency !== "USD") return undefined;
    return {
      kind: "gift" as const,
      amountCents,
      currency,
      description: "One-off gift",
      supporterChoice: item.supporter ?? null,
    };
  }
  const [tier] = await db().select().from(supportTiers).where(eq(supportTiers.key, item.tierKey));
  if (!tier) return undefined;
  return {
    kind: "subscription" as const,
    amountCents: tier.amountCents,
    currency: tier.currency,
    description: `${tier.name} (monthly)`,
    tierKey: tier.key,
    supporterChoice: item.supporter ?? null,
  };
}

/** Counts a checkout against the IP's hourly limit (docs/security-model.md S2); throws CheckoutError 429. */
export async function throttleCheckout(ip: string): Promise<void> {
  try {
    await consume(`checkout:ip:${ip}`, checkoutRule());
  } catch {
    throw new CheckoutError("throttled", 429, "payments.errors.throttled");
  }
}

/**
 * Records a pending payment and opens a checkout at the provider. Nothing is granted here: only the
 * provider's confirmation (webhook.server.ts) moves the payment to paid and books what it grants.
 */
export async function startCheckout(
  user: { id: number; email: string },
  item: CheckoutItem,
  { ip }: { ip: string },
): Promise<{ paymentId: number; url: string }> {
  const price = await priceOf(item);
  if (!price) throw new CheckoutError("unknown-item", 404, "payments.errors.unknownItem");
  await throttleCheckout(ip);
  const values = { userId: user.id, provider: getProvider().name, ...price };
  const [payment] =
    price.kind === "subscription"
      ? await recordSubscriptionCheckout(values)
      : await db().insert(payments).values(values).returning();
  if (!payment) throw new Error("payment not recorded");
  const { url } = await openCheckout(user, payment, {
    mode: price.kind === "subscription" ? "subscription" : "payment",
    returnTo: returnPath(payment),
    ...(price.kind === "subscription" && { tierKey: price.tierKey }),
  });
  return { paymentId: payment.id, url };
}

/**
 * One subscription per reader (ADR 27): with the reader's row locked, a reader whose subscription still
 * grants its tier is refused (they change tier from the account), and a newer join replaces an unanswered
 * one (its pending payment fails, so its test page can no longer approve it).
 */
async function recordSubscriptionCheckout(values: typeof payments.$inferInsert & { userId: number }) {
  const now = new Date();
  return db().transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for("update");
    const held = await tx.select().from(subscriptions).where(eq(subscriptions.userId, values.userId));
    if (held.some((sub) => grantsTier(sub, now)))
      throw new CheckoutError("already-subscribed", 409, "subscriptions.errors.alreadySubscribed");
    await tx
      .update(payments)
      .set({ status: "failed", updatedAt: now })
      .where(
        and(
          eq(payments.userId, values.userId),
          eq(payments.kind, "subscription"),
          eq(payments.status, "pending"),
        ),
      );
    return tx.insert(payments).values(values).returning();
  });
}

/**
 * The one way a recorded pending payment (coins, a tier, an order) gets its session at the provider. If
 * the provider fails, the payment is marked failed and CheckoutError 503 thrown; the caller undoes what
 * else it reserved (an order's stock, ADR 25).
 */
export async function openCheckout(
  user: { id: number; email: string },
  payment: { id: number; amountCents: number; currency: string; description: string },
  options: {
    mode: CheckoutRequest["mode"];
    /** The app's page for this payment's result (a path with or without a query). */
    returnTo: string;
    lineItems?: CheckoutRequest["lineItems"];
    expiresAt?: Date;
    tierKey?: string;
  },
): Promise<{ url: string }> {
  const provider = getProvider();
  const origin = getEnv().origin;
  const back = `${origin}${options.returnTo}`;
  try {
    const session = await provider.createCheckout({
      paymentId: payment.id,
      mode: options.mode,
      amountCents: payment.amountCents,
      currency: payment.currency,
      description: payment.description,
      customerEmail: user.email,
      successUrl: back,
      cancelUrl: `${back}${back.includes("?") ? "&" : "?"}cancelled=1`,
      idempotencyKey: `checkout:payment:${payment.id}`,
      ...(options.lineItems && { lineItems: options.lineItems }),
      ...(options.expiresAt && { expiresAt: options.expiresAt }),
      ...(options.tierKey && { tierKey: options.tierKey }),
    });
    await db()
      .update(payments)
      .set({ providerSessionId: session.sessionId, updatedAt: new Date() })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")));
    logger.info({ paymentId: payment.id, userId: user.id, provider: provider.name }, "checkout started");
    return { url: session.url };
  } catch (error) {
    logger.error({ paymentId: payment.id, err: (error as Error).message }, "checkout could not start");
    await db()
      .update(payments)
      .set({ status: "failed", updatedAt: new Date() })
      .where(eq(payments.id, payment.id));
    throw new CheckoutError("provider-unavailable", 503, "payments.errors.unavailable");
  }
}
