import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Database, getDatabase } from "#db/client.server";
import { membershipGrants, payments, subscriptions } from "#db/schema";
import { fromIso, fromIsoOrNull, type JsonRow } from "~/lib/json-row";
import { grantsTier, paidUntil, type SubscriptionState } from "./subscription-access";
import { type Grant, type MembershipTier, tierForSpend, tierFromGrants, tierRank } from "./tiers";

export type MembershipSource = "spend" | "grant" | "subscription" | "none";

export type Membership = {
  tier: MembershipTier;
  /** Which of the three gives the effective tier (the highest; on a tie, the one that lasts longest). */
  source: MembershipSource;
  /** When the effective tier ends; null when it does not (spend) or for free. */
  until: Date | null;
  totalSpentCents: number;
  /** The cover from membership days bought (stacked), shown even when another source gives a higher tier. */
  days: { tier: MembershipTier; until: Date | null };
};

/**
 * The reader's effective membership (docs/product-rules.md "Membership tiers"): the highest of the tier from total spent (confirmed
 * payments, less refunds), from membership days bought (stacked), and from an active support subscription.
 * Read in one prepared statement (a kept session reads it with every session it keeps: ADR 79); inside a
 * transaction (`from`), through it, as that transaction sees it.
 */
export async function getMembership(
  userId: number,
  now: Date = new Date(),
  /** A transaction reads it as that transaction sees it (a refund's tier before and after its change). */
  from?: Database,
): Promise<Membership> {
  if (!from) {
    const [row] = await getDatabase().preparedRows("membership_of", membershipStatement, [String(userId)]);
    return membershipFromColumns((row ?? [0, [], []]) as MembershipColumns, now);
  }
  const [spent] = await from
    .select({
      total: sql<number>`coalesce(sum(${payments.amountCents} - ${payments.refundedCents}), 0)`.mapWith(
        Number,
      ),
    })
    .from(payments)
    .where(and(eq(payments.userId, userId), inArray(payments.status, ["paid", "refunded"])));
  const totalSpentCents = spent?.total ?? 0;

  const grants = await from
    .select({ days: membershipGrants.days, grantedAt: membershipGrants.grantedAt })
    .from(membershipGrants)
    .where(and(eq(membershipGrants.userId, userId), isNull(membershipGrants.revokedAt)));

  const subs = await from
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), sql`${subscriptions.startedAt} <= ${now.toISOString()}`));

  return membershipOf({ totalSpentCents, grants, subscriptions: subs }, now);
}

type MembershipSubscription = Parameters<typeof membershipOf>[0]["subscriptions"][number];
type JsonGrant = JsonRow<Grant>;
type JsonSubscription = JsonRow<MembershipSubscription>;

/**
 * A reader's grants not revoked and their subscriptions, as JSON arrays from subqueries on the reader's own
 * rows (`userId`: the SQL naming the reader's id), for one statement that reads them with other lists.
 */
export const membershipListsSql = (
  userId: string,
) => `(select coalesce(json_agg(json_build_object('days', g.days,
    'grantedAt', g.granted_at)), '[]') from membership_grants g where g.user_id = ${userId} and g.revoked_at is null),
  (select coalesce(json_agg(json_build_object('tierKey', s.tier_key, 'status', s.status, 'currentPeriodEnd',
    s.current_period_end, 'cancelAtPeriodEnd', s.cancel_at_period_end, 'graceUntil', s.grace_until, 'endedAt',
    s.ended_at, 'startedAt', s.started_at)), '[]') from subscriptions s where s.user_id = ${userId})`;

/**
 * What a membership is made of, as three columns (the total spent, the grants, the subscriptions) for a
 * statement's select list: `membershipFromJson` of them.
 */
export const membershipSql = (userId: string) => `(select coalesce(sum(p.amount_cents - p.refunded_cents), 0)
    from payments p where p.user_id = ${userId} and p.status in ('paid', 'refunded')),
  ${membershipListsSql(userId)}`;

const membershipStatement = `select ${membershipSql("$1")}`;

/** The three columns of `membershipSql`, as a driver returns them (a sum may come as text). */
export type MembershipColumns = [number | string, JsonGrant[], JsonSubscription[]];

/** `membershipOf` of the columns `membershipSql` reads. */
export const membershipFromColumns = ([total, grants, subscriptions]: MembershipColumns, now: Date) =>
  membershipFromJson({ totalSpentCents: Number(total), grants, subscriptions }, now);

/** `membershipOf` of the lists `membershipListsSql` reads (timestamps as ISO strings). */
export function membershipFromJson(
  input: { totalSpentCents: number; grants: JsonGrant[]; subscriptions: JsonSubscription[] },
  now: Date,
): Membership {
  return membershipOf(
    {
      totalSpentCents: input.totalSpentCents,
      grants: input.grants.map((grant) => ({ ...grant, grantedAt: fromIso(grant.grantedAt) })),
      subscriptions: subscriptionsFromJson(input.subscriptions),
    },
    now,
  );
}

/** The subscriptions `membershipListsSql` reads, their timestamps as dates. */
const subscriptionsFromJson = (subscriptions: JsonSubscription[]) =>
  subscriptions.map((sub) => ({
    ...sub,
    currentPeriodEnd: fromIso(sub.currentPeriodEnd),
    graceUntil: fromIsoOrNull(sub.graceUntil),
    endedAt: fromIsoOrNull(sub.endedAt),
    startedAt: fromIso(sub.startedAt),
  }));

/**
 * Whether any of the subscriptions `membershipSql` reads still gives its tier at `now`: the reader's
 * subscription shows on the fundraiser's tier cards (ADR 102).
 */
export const subscribedFromColumns = ([, , subscriptions]: MembershipColumns, now: Date) =>
  subscriptionsFromJson(subscriptions).some((sub) => grantsTier(sub, now));

/**
 * The effective membership from the reader's records: total spent, grants not revoked, subscriptions
 * (those not started by `now` are left out). Decided by dates (subscription-access.ts): a tier ends on time
 * even if the provider's event never comes.
 */
export function membershipOf(
  input: {
    totalSpentCents: number;
    grants: Grant[];
    subscriptions: (SubscriptionState & { tierKey: MembershipTier; startedAt: Date })[];
  },
  now: Date,
): Membership {
  return effectiveMembership({
    totalSpentCents: input.totalSpentCents,
    grant: tierFromGrants(input.grants, now),
    subscriptions: input.subscriptions
      .filter((sub) => sub.startedAt.getTime() <= now.getTime() && grantsTier(sub, now))
      .map((sub) => ({ tier: sub.tierKey, until: paidUntil(sub, now) ?? now })),
  });
}

/** The highest of the three sources; on equal tiers, spend (no end) beats a dated one, then the later end. */
export function effectiveMembership(input: {
  totalSpentCents: number;
  grant: { tier: MembershipTier; until: Date | null };
  subscriptions: { tier: MembershipTier; until: Date }[];
}): Membership {
  const candidates: { tier: MembershipTier; source: MembershipSource; until: Date | null }[] = [
    { tier: tierForSpend(input.totalSpentCents), source: "spend", until: null },
    { tier: input.grant.tier, source: "grant", until: input.grant.until },
    ...input.subscriptions.map((s) => ({ tier: s.tier, source: "subscription" as const, until: s.until })),
  ];
  const lasting = (until: Date | null) => (until === null ? Number.POSITIVE_INFINITY : until.getTime());
  const best = candidates
    .filter((c) => c.tier !== "free")
    .sort((a, b) => tierRank(b.tier) - tierRank(a.tier) || lasting(b.until) - lasting(a.until))[0];
  const figures = { totalSpentCents: input.totalSpentCents, days: input.grant };
  if (!best) return { tier: "free", source: "none", until: null, ...figures };
  return { ...best, ...figures };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A membership as a page receives it: dates as ISO strings, the days' cover with whole days left (rounded up). */
export function membershipView(membership: Membership, now: Date = new Date()) {
  const { days } = membership;
  return {
    ...membership,
    until: membership.until?.toISOString() ?? null,
    days:
      days.tier !== "free" && days.until
        ? {
            tier: days.tier,
            until: days.until.toISOString(),
            daysLeft: Math.ceil((days.until.getTime() - now.getTime()) / DAY_MS),
          }
        : null,
  };
}
