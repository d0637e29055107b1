import { and, desc, eq, gt } from "drizzle-orm";
import { db } from "#db/client.server";
import { oauthIdentities, sessions, users } from "#db/schema";
import { sessionLifetimes } from "~/features/auth/session.server";
import type { Language } from "~/i18n/config";
import { describeDevice } from "./device";

/** The account's time zone and e-mail choices, as /settings shows them. */
export async function getAccountChoices(userId: number) {
  const [row] = await db()
    .select({
      timeZone: users.timeZone,
      timeZoneFixed: users.timeZoneFixed,
      newChapters: users.emailNewChapters,
      accountNotices: users.emailAccountNotices,
      qaPublished: users.emailQa,
      news: users.emailNews,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}

/** A fixed zone, or (`undefined`) the browser's again: its detected zone if known, else the stored one. */
export async function saveTimeZone(userId: number, fixed: string | undefined, detected: string | undefined) {
  await db()
    .update(users)
    .set(
      fixed
        ? { timeZone: fixed, timeZoneFixed: true }
        : { timeZoneFixed: false, ...(detected ? { timeZone: detected } : {}) },
    )
    .where(eq(users.id, userId));
}

export async function saveLanguage(userId: number, language: Language) {
  await db().update(users).set({ language }).where(eq(users.id, userId));
}

export async function saveEmailChoices(
  userId: number,
  choices: { newChapters: boolean; accountNotices: boolean; qaPublished?: boolean; news?: boolean },
) {
  await db()
    .update(users)
    .set({
      emailNewChapters: choices.newChapters,
      emailAccountNotices: choices.accountNotices,
      // The form always sends it; a caller that does not name it leaves it as it is.
      ...(choices.qaPublished === undefined ? {} : { emailQa: choices.qaPublished }),
      // The author's announcements (ADR 95): opt-in, off until ticked.
      ...(choices.news === undefined ? {} : { emailNews: choices.news }),
    })
    .where(eq(users.id, userId));
}

/** Sessions a list shows at most; the oldest beyond it are still revoked by "sign out everywhere". */
export const SESSIONS_SHOWN = 50;

/** The account's live sessions, most recently seen first, each with the device its browser named. */
export async function listSessions(userId: number, currentSessionId: number, now = new Date()) {
  const rows = await db()
    .select({
      id: sessions.id,
      remember: sessions.remember,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
    .limit(SESSIONS_SHOWN);
  return sessionList(rows, currentSessionId, now);
}

export type SessionRow = {
  id: number;
  remember: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
};

/** The sessions of `listSessions`'s rows (not expired by `now`) as /settings lists them. */
export function sessionList(rows: SessionRow[], currentSessionId: number, now: Date) {
  return rows
    .filter((row) => {
      const { idleMs } = row.remember ? sessionLifetimes.remember : sessionLifetimes.normal;
      return row.lastSeenAt.getTime() + idleMs > now.getTime();
    })
    .map((row) => ({
      id: row.id,
      current: row.id === currentSessionId,
      device: describeDevice(row.userAgent),
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
    }));
}

/** Ends one of the account's own sessions; false when it is not one of theirs (or already ended). */
export async function revokeSession(userId: number, sessionId: number): Promise<boolean> {
  const ended = await db()
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

export type UnlinkOutcome = "unlinked" | "notLinked" | "lastSignIn";

/**
 * Unlinks a provider unless it is the account's last way to sign in (no password, no other identity). The
 * account row is locked first, so two unlinks at once cannot each leave the other as the last one and
 * then both go.
 */
export function unlinkIdentity(userId: number, provider: string): Promise<UnlinkOutcome> {
  return db().transaction(async (tx) => {
    const [account] = await tx
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    const identities = await tx
      .select({ provider: oauthIdentities.provider })
      .from(oauthIdentities)
      .where(eq(oauthIdentities.userId, userId));
    if (!account || !identities.some((identity) => identity.provider === provider)) return "notLinked";
    const others = identities.filter((identity) => identity.provider !== provider).length;
    if (account.passwordHash === null && others === 0) return "lastSignIn";
    await tx
      .delete(oauthIdentities)
      .where(and(eq(oauthIdentities.userId, userId), eq(oauthIdentities.provider, provider)));
    return "unlinked";
  });
}
