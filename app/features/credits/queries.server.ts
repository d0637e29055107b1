import { and, asc, eq, isNull, ne, or, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { creditsPage, supporters, users } from "#db/schema";
import { shownName, untilReaderEventOrMinute } from "~/features/fundraiser/queries.server";
import { memoByRevision } from "~/features/site/revision.server";
import { FIRST_HUMAN_DAYS, FIRST_HUMAN_SPEND_CENTS } from "./rule";

/** A name in the credits: the name the reader chose for the supporters wall, or null for "Anonymous". */
export type CreditedName = { id: number; name: string | null };

/**
 * Every reader who has ever held First Human (rule.ts), in one statement: a net spend of $100 or more (as the
 * spend tier counts it), a grant of 180 days or more not revoked and begun, a First Human invoice paid and not
 * wholly refunded, or a First Human subscription that ran for a moment (started, and its access lasted past its
 * start). Each comes with their wall choice; one who never made one is "Anonymous" (nothing is shown of a
 * reader who did not choose it), one who chose "not listed" is left out.
 */
export async function readCredited(now: Date): Promise<CreditedName[]> {
  const at = now.toISOString();
  const rows = await db()
    .select({
      id: users.id,
      username: users.username,
      display: supporters.display,
      name: supporters.name,
    })
    .from(users)
    .leftJoin(supporters, eq(supporters.userId, users.id))
    .where(
      and(
        or(isNull(supporters.display), ne(supporters.display, "hidden")),
        sql`((select coalesce(sum(p.amount_cents - p.refunded_cents), 0) from payments p
          where p.user_id = ${users.id} and p.status in ('paid', 'refunded')) >= ${FIRST_HUMAN_SPEND_CENTS}
        or exists (select 1 from membership_grants g where g.user_id = ${users.id} and g.revoked_at is null
          and g.days >= ${FIRST_HUMAN_DAYS} and g.granted_at <= ${at}::timestamptz)
        or exists (select 1 from payments p where p.user_id = ${users.id} and p.kind = 'subscription'
          and p.tier_key = 'first_human' and p.status in ('paid', 'refunded') and p.refunded_cents < p.amount_cents)
        or exists (select 1 from subscriptions b where b.user_id = ${users.id} and b.tier_key = 'first_human'
          and b.started_at <= ${at}::timestamptz and b.status in ('active', 'trialing', 'past_due', 'canceled')
          and coalesce(b.ended_at, b.current_period_end) > b.started_at))`,
      ),
    )
    .orderBy(asc(users.id));
  const named = rows.map((row) => ({
    id: row.id,
    name:
      row.display === null
        ? null
        : shownName({ display: row.display, name: row.name ?? "", username: row.username }),
  }));
  // Named first, by name as people read it; "Anonymous" after, in the order they joined the site.
  const byName = named.filter((entry) => entry.name !== null);
  byName.sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "", "en", { sensitivity: "base" }));
  return [...byName, ...named.filter((entry) => entry.name === null)];
}

/** The author's acknowledgements (Markdown), empty until written. */
export async function readAcknowledgements(): Promise<string> {
  const [row] = await db().select({ text: creditsPage.acknowledgementsMd }).from(creditsPage);
  return row?.text ?? "";
}

/**
 * What /credits shows, the same for everyone, read once for all (as /fundraiser's figures, ADR 71): kept until
 * the content changes (the wall choices, the acknowledgements), any reader's records change (a payment, a grant,
 * a subscription: the reader events) or the minute ends (a grant or a subscription starts on its own time).
 */
export const creditsFigures = memoByRevision(async () => {
  const [names, acknowledgementsMd] = await Promise.all([readCredited(new Date()), readAcknowledgements()]);
  return { names, acknowledgementsMd };
}, untilReaderEventOrMinute);
