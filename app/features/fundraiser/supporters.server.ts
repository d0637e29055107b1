import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { payments, type SupporterChoice, supporters, type WallTier } from "#db/schema";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * A support payment (a gift, or the payment that starts a subscription) has been confirmed: the payer's
 * wall entry takes the choice made at checkout (or keeps the one they have) and moves to the top.
 * Runs inside the payment's transaction.
 */
export async function recordSupport(tx: Tx, payment: typeof payments.$inferSelect, now: Date): Promise<void> {
  const tier: WallTier = payment.kind === "subscription" && payment.tierKey ? payment.tierKey : "gift";
  const choice = payment.supporterChoice;
  const values = {
    userId: payment.userId,
    display: choice?.display ?? "username",
    name: choice?.name ?? "",
    emoji: choice?.emoji ?? "",
    message: choice?.message ?? "",
    tier,
    supportedAt: now,
  };
  await tx
    .insert(supporters)
    .values(values)
    .onConflictDoUpdate({
      target: supporters.userId,
      set: {
        ...(choice
          ? { display: values.display, name: values.name, emoji: values.emoji, message: values.message }
          : {}),
        // A gift does not replace the label of a reader who holds a support tier.
        tier:
          tier === "gift"
            ? sql`case when ${supporters.tier} in ('observer', 'analyst', 'first_human') then ${supporters.tier} else 'gift' end`
            : tier,
        supportedAt: now,
      },
    });
}

/** How the reader appears on the wall now, or undefined when they have not supported yet. */
export async function getOwnWallEntry(userId: number) {
  const [row] = await db()
    .select({
      display: supporters.display,
      name: supporters.name,
      emoji: supporters.emoji,
      message: supporters.message,
      tier: supporters.tier,
    })
    .from(supporters)
    .where(eq(supporters.userId, userId));
  return row;
}

/**
 * The reader changes how they appear: only an entry they already have (supporting puts them on the wall;
 * this never adds anyone). False when they have none.
 */
export async function updateWallChoice(userId: number, choice: SupporterChoice): Promise<boolean> {
  const updated = await db()
    .update(supporters)
    .set({ display: choice.display, name: choice.name, emoji: choice.emoji, message: choice.message })
    .where(eq(supporters.userId, userId))
    .returning({ id: supporters.id });
  return updated.length > 0;
}

/** The reader's one-off gifts, newest first (the account's gift history). */
export async function listOwnGifts(userId: number) {
  return db()
    .select({
      id: payments.id,
      amountCents: payments.amountCents,
      refundedCents: payments.refundedCents,
      currency: payments.currency,
      status: payments.status,
      createdAt: payments.createdAt,
      paidAt: payments.paidAt,
    })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.kind, "gift")))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(100);
}

/** A support payment (gift or tier) of the reader's own, for the thank-you page; undefined for anyone else's. */
export async function getOwnSupportPayment(userId: number, paymentId: number) {
  const [row] = await db()
    .select({
      id: payments.id,
      kind: payments.kind,
      status: payments.status,
      amountCents: payments.amountCents,
      currency: payments.currency,
      tierKey: payments.tierKey,
      choice: payments.supporterChoice,
    })
    .from(payments)
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.userId, userId),
        inArray(payments.kind, ["gift", "subscription"]),
      ),
    );
  return row;
}
