import { randomUUID } from "node:crypto";
import { aliasedTable, and, count, desc, eq, ilike, lt, or, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import {
  chapters,
  chapterUnlocks,
  coinLedger,
  membershipGrants,
  orders,
  sessions,
  subscriptions,
  users,
} from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { forgetKeptSessions } from "~/features/auth/session.server";
import { book, InsufficientCoins } from "~/features/coins/ledger.server";
import { sendCoinAdjustmentMail } from "~/features/coins/notices.server";
import { getMembership, membershipView } from "~/features/membership/queries.server";

/** A page of the readers list. */
export const READERS_PAGE_SIZE = 50;
/** How many of a reader's unlocks, orders and ledger entries their admin page lists (the newest). */
const RECENT = 50;

/** What the admin shows of an account: never its password or addresses. */
const readerColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  coinBalance: users.coinBalance,
  createdAt: users.createdAt,
  suspendedAt: users.suspendedAt,
};

/** `text` as an ILIKE pattern matching it literally anywhere (its %, _ and \ are not wildcards). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * Readers whose username or e-mail contains `q` (case-insensitive, literally), newest first, a page at a
 * time (`before`: the last id seen). The author sees only what running the site needs: no password, no
 * address.
 */
export async function searchReaders(filter: { q?: string; before?: number }) {
  const conditions = [];
  if (filter.q)
    conditions.push(
      or(ilike(users.username, containing(filter.q)), ilike(users.email, containing(filter.q))),
    );
  if (filter.before) conditions.push(lt(users.id, filter.before));
  const rows = await db()
    .select(readerColumns)
    .from(users)
    .where(and(...conditions))
    .orderBy(desc(users.id))
    .limit(READERS_PAGE_SIZE + 1);
  return {
    readers: rows.slice(0, READERS_PAGE_SIZE).map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      suspended: row.suspendedAt !== null,
    })),
    next: rows.length > READERS_PAGE_SIZE ? rows[READERS_PAGE_SIZE - 1]?.id : undefined,
  };
}

const actors = aliasedTable(users, "actors");

/** One reader as the admin shows them: balance, tier and why, and their recent records. */
export async function getReaderForAdmin(id: number) {
  const [reader] = await db().select(readerColumns).from(users).where(eq(users.id, id));
  if (!reader) return undefined;
  const [membership, unlocks, readerOrders, subs, devices, ledger] = await Promise.all([
    getMembership(id),
    db()
      .select({
        number: chapters.number,
        title: chapters.title,
        coins: chapterUnlocks.coinsSpent,
        at: chapterUnlocks.createdAt,
      })
      .from(chapterUnlocks)
      .innerJoin(chapters, eq(chapters.id, chapterUnlocks.chapterId))
      .where(eq(chapterUnlocks.userId, id))
      .orderBy(desc(chapterUnlocks.createdAt))
      .limit(RECENT),
    db()
      .select({
        id: orders.id,
        status: orders.status,
        totalCents: orders.totalCents,
        currency: orders.currency,
        at: orders.createdAt,
      })
      .from(orders)
      .where(eq(orders.userId, id))
      .orderBy(desc(orders.id))
      .limit(RECENT),
    db()
      .select({
        tier: subscriptions.tierKey,
        status: subscriptions.status,
        startedAt: subscriptions.startedAt,
      })
      .from(subscriptions)
      .where(eq(subscriptions.userId, id))
      .orderBy(desc(subscriptions.id)),
    db().select({ sessions: count() }).from(sessions).where(eq(sessions.userId, id)),
    db()
      .select({
        delta: coinLedger.delta,
        reason: coinLedger.reason,
        note: coinLedger.note,
        by: actors.username,
        at: coinLedger.createdAt,
      })
      .from(coinLedger)
      .leftJoin(actors, eq(actors.id, coinLedger.actorId))
      .where(eq(coinLedger.userId, id))
      .orderBy(desc(coinLedger.id))
      .limit(RECENT),
  ]);
  const iso = <T extends { at: Date }>(rows: T[]) =>
    rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  return {
    ...reader,
    createdAt: reader.createdAt.toISOString(),
    suspendedAt: reader.suspendedAt?.toISOString() ?? null,
    membership: membershipView(membership),
    unlocks: iso(unlocks),
    orders: iso(readerOrders),
    subscriptions: subs.map((sub) => ({ ...sub, startedAt: sub.startedAt.toISOString() })),
    sessions: devices[0]?.sessions ?? 0,
    ledger: iso(ledger),
  };
}

export type ReaderChange = { ok: true } | { ok: false; reason: "notFound" | "negative" | "author" };

/**
 * Adds `delta` coins (negative: takes them) to a reader's balance with the author's reason: a ledger entry
 * that names the author. The balance never goes below zero (the ledger's conditional update refuses it, so
 * a spend at the same moment cannot slip under), and then nothing changes.
 */
export async function adjustCoins(
  userId: number,
  delta: number,
  note: string,
  actor: Actor & { via: "admin" },
): Promise<ReaderChange> {
  try {
    const outcome = await db().transaction(async (tx) => {
      const [before] = await tx
        .select({ balance: users.coinBalance })
        .from(users)
        .where(eq(users.id, userId));
      if (!before) return { ok: false, reason: "notFound" } as const;
      await book(tx, {
        userId,
        delta,
        reason: "admin",
        idempotencyKey: `admin:${randomUUID()}`,
        actorId: actor.userId,
        note,
      });
      const [after] = await tx.select({ balance: users.coinBalance }).from(users).where(eq(users.id, userId));
      await recordAudit(tx, actor, {
        action: "reader.coins",
        subjectType: "user",
        subjectId: userId,
        before: { balance: before.balance },
        after: { balance: after?.balance, delta, note },
      });
      return { ok: true } as const;
    });
    if (outcome.ok) {
      forgetKeptSessions(userId);
      await sendCoinAdjustmentMail(userId, delta, note);
    }
    return outcome;
  } catch (error) {
    if (error instanceof InsufficientCoins) return { ok: false, reason: "negative" };
    throw error;
  }
}

/** Grants a reader `days` of membership with the author's reason (stacked with days bought, as a purchase's). */
export async function grantMembershipDays(
  userId: number,
  days: number,
  note: string,
  actor: Actor & { via: "admin" },
): Promise<ReaderChange> {
  const change = await db().transaction(async (tx) => {
    const [reader] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    if (!reader) return { ok: false, reason: "notFound" } as const;
    const [grant] = await tx
      .insert(membershipGrants)
      .values({ userId, days, grantedAt: new Date(), grantedBy: actor.userId, note })
      .returning({ id: membershipGrants.id });
    await recordAudit(tx, actor, {
      action: "reader.membership",
      subjectType: "user",
      subjectId: userId,
      after: { grant: grant?.id, days, note },
    });
    return { ok: true } as const;
  });
  // A kept session carries the tier (ADR 51): forgotten here at once, on the other instances by the events.
  if (change.ok) forgetKeptSessions(userId);
  return change;
}

/**
 * Suspends an account (it cannot sign in, and its sessions end in the same transaction) or restores it. An
 * author is not suspended: revoke the role first (the last author keeps it). The row is locked, so a
 * sign-in at the same moment either comes first and its session is ended here, or finds the account
 * suspended; the session lookup also refuses a suspended account's session.
 */
export async function setSuspended(
  userId: number,
  suspended: boolean,
  note: string,
  actor: Actor & { via: "admin" },
): Promise<ReaderChange> {
  const change = await db().transaction(async (tx) => {
    const [reader] = await tx
      .select({ role: users.role, suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!reader) return { ok: false, reason: "notFound" } as const;
    if (suspended && reader.role === "author") return { ok: false, reason: "author" } as const;
    await tx
      .update(users)
      .set({ suspendedAt: suspended ? (reader.suspendedAt ?? sql`now()`) : null })
      .where(eq(users.id, userId));
    const ended = suspended
      ? await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id })
      : [];
    await recordAudit(tx, actor, {
      action: suspended ? "reader.suspend" : "reader.restore",
      subjectType: "user",
      subjectId: userId,
      before: { suspended: reader.suspendedAt !== null },
      after: { suspended, note, sessionsEnded: ended.length },
    });
    return { ok: true } as const;
  });
  // Once committed: this instance's kept sessions go at once, other instances' at their next events read.
  if (change.ok) forgetKeptSessions(userId);
  return change;
}
