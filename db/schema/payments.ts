/** Payments at a provider and what they grant (memberships, subscriptions). */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { type SupporterDisplay, tierKeys } from "./fundraiser";
import { accountId, ownerId, users } from "./users";

export const paymentKinds = ["coins", "product", "subscription", "gift"] as const;
export type PaymentKind = (typeof paymentKinds)[number];

/** How a supporter asked to appear on the wall (zod-checked where it is read from a form). */
export type SupporterChoice = {
  display: SupporterDisplay;
  name: string;
  emoji: string;
  message: string;
};
export const paymentStatuses = ["pending", "paid", "failed", "refunded", "disputed"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * One attempt to pay, created before the reader goes to the provider. What it grants (coins, membership
 * days, a support tier) is fixed here by the server at creation; the provider's confirmation only moves
 * the status, and only when its amount and currency match these.
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    userId: accountId(),
    kind: text("kind", { enum: paymentKinds }).notNull(),
    provider: text("provider").notNull(),
    /** The provider's checkout session id (for the test provider, an unguessable token). */
    providerSessionId: text("provider_session_id").unique(),
    /** The provider's id of the money movement (Stripe payment intent), learnt on confirmation. */
    providerPaymentId: text("provider_payment_id"),
    status: text("status", { enum: paymentStatuses }).notNull().default("pending"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    coins: integer("coins").notNull().default(0),
    coinPackKey: text("coin_pack_key"),
    membershipDays: integer("membership_days").notNull().default(0),
    tierKey: text("tier_key", { enum: tierKeys }),
    refundedCents: integer("refunded_cents").notNull().default(0),
    /**
     * What the author asked the provider to refund so far (ADR 43): a request takes its share here under
     * the row lock first, so two at once never ask for more than was paid; the provider's event then moves
     * `refundedCents`.
     */
    refundRequestedCents: integer("refund_requested_cents").notNull().default(0),
    coinsReversed: integer("coins_reversed").notNull().default(0),
    /**
     * The reader's membership tier before and after the newest refund that changed it (ADR 57): the account
     * and the refund e-mail say why the tier moved. Null while no refund of this payment changed the tier.
     */
    refundTierChange: jsonb("refund_tier_change").$type<{ from: string; to: string }>(),
    /** The chapter (by number) the purchase started from: the payer returns there (ADR 18). */
    chapterNumber: integer("chapter_number"),
    /** "Buy and unlock": the confirmed payment also unlocks `chapterNumber`, in the same transaction. */
    unlockChapter: boolean("unlock_chapter").notNull().default(false),
    /** A support payment (tier or gift): how the payer chose to appear on the wall, applied once paid. */
    supporterChoice: jsonb("supporter_choice").$type<SupporterChoice>(),
    /** A subscription's invoice (its first or a renewal): the subscription and the provider's invoice id. */
    subscriptionId: integer("subscription_id"),
    providerInvoiceId: text("provider_invoice_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_user_id").on(t.userId),
    index("payments_provider_payment_id").on(t.providerPaymentId),
    check("payments_amount_positive", sql`${t.amountCents} > 0`),
    check("payments_coins_non_negative", sql`${t.coins} >= 0`),
    check("payments_chapter_number_range", sql`${t.chapterNumber} between 1 and 999999`),
    check("payments_unlock_needs_chapter", sql`not ${t.unlockChapter} or ${t.chapterNumber} is not null`),
    check("payments_refunded_range", sql`${t.refundedCents} between 0 and ${t.amountCents}`),
    check("payments_kind_known", sql`${t.kind} in ('coins', 'product', 'subscription', 'gift')`),
    uniqueIndex("payments_provider_invoice").on(t.provider, t.providerInvoiceId),
    index("payments_subscription_id").on(t.subscriptionId),
    index("payments_paid_at").on(t.paidAt),
    check("payments_status_known", sql`${t.status} in ('pending', 'paid', 'failed', 'refunded', 'disputed')`),
  ],
);

/** Every provider event acted on, by id: a redelivered event finds its row and changes nothing. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    outcome: text("outcome").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * Membership days granted by a purchase (docs/product-rules.md "Membership tiers"), one row per unit bought;
 * revoked when the payment is refunded or disputed.
 */
export const membershipGrants = pgTable(
  "membership_grants",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "cascade" }),
    /** Which unit of the payment this is: an order grants one row per unit bought, each with its own days. */
    unit: integer("unit").notNull().default(0),
    days: integer("days").notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Days an author granted from the admin (no payment): who granted them, and the reason they gave. */
    grantedBy: integer("granted_by").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    note: text("note"),
  },
  (t) => [
    index("membership_grants_user_id").on(t.userId),
    uniqueIndex("membership_grants_payment_unit").on(t.paymentId, t.unit),
    check("membership_grants_days_positive", sql`${t.days} > 0`),
  ],
);

/** A support-tier subscription at the provider; grants its tier while active and paid up. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    provider: text("provider").notNull(),
    providerSubscriptionId: text("provider_subscription_id").notNull(),
    /** The checkout payment that started it: a refund or dispute of that payment ends the subscription. */
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    tierKey: text("tier_key", { enum: tierKeys }).notNull(),
    /** active, past_due (a renewal failed: access lasts to `graceUntil`), canceled (ended). */
    status: text("status").notNull(),
    /** The price per period, as the provider bills it. */
    amountCents: integer("amount_cents").notNull().default(0),
    currency: text("currency").notNull().default("USD"),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
    /** Cancelled by the supporter: access lasts to `currentPeriodEnd`, then it ends. */
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** A downgrade waiting for the period end. */
    pendingTierKey: text("pending_tier_key", { enum: tierKeys }),
    /** After a failed renewal: the tier lasts until then (3 days' grace). */
    graceUntil: timestamp("grace_until", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /**
     * The provider's time of the newest state event applied (status, cancel, tier): an older event that
     * arrives late changes none of these, and the period end only ever moves forward (ADR 27).
     */
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscriptions_provider_id").on(t.provider, t.providerSubscriptionId),
    index("subscriptions_user_id").on(t.userId),
  ],
);
