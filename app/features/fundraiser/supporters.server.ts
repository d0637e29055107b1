import { sql } from "drizzle-orm";
import type { Database } from "#db/client.server";
import { type payments, supporters, type WallTier } from "#db/schema";

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
