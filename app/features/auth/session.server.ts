import { and, asc, eq, gt, isNull, lt, max, ne, sql } from "drizzle-orm";
import { type Database, db, getDatabase } from "#db/client.server";
import { databaseEpochValue } from "#db/epoch.server";
import { readingSettings, sessionEvents, sessions, users } from "#db/schema";
import { CART_COOKIE, cartCookie, readCartCookie } from "~/features/cart/cookie.server";
import { MAX_CART_LINES } from "~/features/cart/limits";
import type { CartLine } from "~/features/cart/lines";
import { mergeIntoCart } from "~/features/cart/queries.server";
import {
  type MembershipColumns,
  membershipFromColumns,
  membershipSql,
  subscribedFromColumns,
} from "~/features/membership/queries.server";
import type { MembershipTier } from "~/features/membership/tiers";
import { defaultSettings, type ReadingSettings } from "~/features/reading-settings/settings";
import { clockOffsetMs, releaseTimeMs } from "~/lib/clock.server";
import type { RequestMeta } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { readCookies } from "~/lib/preferences.server";
import { requestScope, scopedMemo } from "~/lib/request-scope";
import { hashToken, randomToken } from "~/lib/tokens.server";
import { type EventReader, SessionCache } from "./session-cache.server";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Idle and absolute timeouts (docs/security-model.md S5); "Remember me" only lengthens them. */
export const sessionLifetimes = {
  normal: { idleMs: DAY, absoluteMs: 7 * DAY },
  remember: { idleMs: 30 * DAY, absoluteMs: 90 * DAY },
} as const;

/** Writes to last_seen_at at most this often, so reading pages does not mean writing rows. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export type SessionUser = {
  id: number;
  sessionId: number;
  username: string;
  email: string;
  role: "reader" | "author";
  coinBalance: number;
  createdAt: Date;
  hasPassword: boolean;
  /** The account's e-mail address is confirmed (ADR 56): until then a banner asks for it, and comments wait. */
  emailConfirmed: boolean;
  /** The IANA zone the reader's reading days are dated in (ADR 29). */
  timeZone: string;
  /** The reader chose the zone on /settings: the browser's no longer replaces it. */
  timeZoneFixed: boolean;
  /** Read with the session (one query): every page a signed-in reader sees is rendered in them. */
  readingSettings: ReadingSettings;
};

function secureCookies(): boolean {
  return getEnv().origin.startsWith("https:");
}

/** `__Host-` cookies must be Secure, so the prefix is used when the site is served over https. */
export function sessionCookieName(): string {
  return secureCookies() ? "__Host-session" : "session";
}

function cookie(value: string, maxAgeSeconds?: number): string {
  const parts = [`${sessionCookieName()}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (secureCookies()) parts.push("Secure");
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`);
  return parts.join("; ");
}

export function clearSessionCookie(): string {
  return cookie("", 0);
}

/** Starts a session with a new random token and returns its Set-Cookie header. */
export async function createSession(
  userId: number,
  {
    remember,
    ip,
    userAgent,
    verifiedBy,
  }: { remember: boolean; ip?: string; userAgent?: string | null; verifiedBy?: string },
): Promise<string> {
  const token = randomToken();
  const lifetime = remember ? sessionLifetimes.remember : sessionLifetimes.normal;
  await db()
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      userId,
      remember,
      expiresAt: new Date(Date.now() + lifetime.absoluteMs),
      ip,
      userAgent: userAgent?.slice(0, 300),
      verifiedBy,
    });
  // Without "Remember me" the cookie lasts until the browser closes (and the server's idle timeout).
  return cookie(token, remember ? Math.floor(lifetime.absoluteMs / 1000) : undefined);
}

/**
 * Signs a user in with a new session and revokes the one the browser presented, whoever's it was, so no
 * session id planted or seen before sign-in stays valid after it (session fixation, OWASP ASVS 3.2).
 * Every sign-in (password, reset, social; a registration signs in through one of them) comes here, so it is
 * also where a visitor's cart cookie joins the reader's stored cart and is cleared (ADR 24). Returns the
 * Set-Cookie headers to send. `verifiedBy` says how the sign-in was verified when a second step was asked
 * for ("password+totp"); the session records it (ADR 65).
 */
export async function signIn(
  request: Request,
  userId: number,
  {
    remember,
    meta,
    method,
    verifiedBy = method,
  }: { remember: boolean; meta: RequestMeta; method: string; verifiedBy?: string },
): Promise<string[]> {
  const cookies = readCookies(request);
  const presented = cookies.get(sessionCookieName());
  if (presented) {
    const revoked = await db()
      .delete(sessions)
      .where(eq(sessions.tokenHash, hashToken(presented)))
      .returning({ userId: sessions.userId });
    for (const { userId } of revoked) kept.forgetUser(userId);
    if (revoked.length > 0)
      logger.info(
        { event: "session.revoked", reason: "sign-in", userId: revoked[0]?.userId, ...meta },
        "session presented at sign-in revoked",
      );
  }
  lookups.delete(request);
  const cookie = await createSession(userId, {
    remember,
    ip: meta.ip,
    userAgent: request.headers.get("user-agent"),
    verifiedBy,
  });
  logger.info({ event: "signed-in", method, verifiedBy, userId, ...meta }, "signed in");
  if (!cookies.has(CART_COOKIE)) return [cookie];
  await mergeIntoCart(userId, readCartCookie(cookies));
  return [cookie, cartCookie([])];
}

const lookups = new WeakMap<Request, Promise<SessionUser | undefined>>();
/** The lookups of a page's loaders, each given its own copy of the request (app/lib/request-scope.ts). */
const scopedLookups = scopedMemo<SessionUser | undefined>();

/** The signed-in user of a request, or undefined. Looked up once per request. */
export function getSessionUser(request: Request): Promise<SessionUser | undefined> {
  let lookup = lookups.get(request);
  if (!lookup) {
    const token = readCookies(request).get(sessionCookieName());
    const scope = token === undefined ? undefined : requestScope(request);
    lookup =
      token === undefined
        ? Promise.resolve(undefined)
        : scope === undefined
          ? lookUpSessionToken(token)
          : scopedLookups(scope, token, () => lookUpSessionToken(token));
    lookups.set(request, lookup);
  }
  return lookup;
}

/** The reader's reading settings, named as the settings are (a left join: all null before they save any). */
const settingColumns = {
  fontSize: readingSettings.fontSize,
  fontFamily: readingSettings.fontFamily,
  lineHeight: readingSettings.lineHeight,
  theme: readingSettings.theme,
  textWidth: readingSettings.textWidth,
  paragraphSpacing: readingSettings.paragraphSpacing,
  textAlign: readingSettings.textAlign,
  authorNotes: readingSettings.authorNotes,
  sideBySide: readingSettings.sideBySide,
} satisfies Record<keyof ReadingSettings, unknown>;
const settingKeys = Object.keys(settingColumns) as (keyof ReadingSettings)[];

const sessionColumns = {
  sessionId: sessions.id,
  remember: sessions.remember,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
  id: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  coinBalance: users.coinBalance,
  createdAt: users.createdAt,
  passwordHash: users.passwordHash,
  emailConfirmedAt: users.emailConfirmedAt,
  timeZone: users.timeZone,
  timeZoneFixed: users.timeZoneFixed,
  ...settingColumns,
};
type SessionRow = {
  [K in keyof typeof sessionColumns]: (typeof sessionColumns)[K]["_"]["notNull"] extends true
    ? (typeof sessionColumns)[K]["_"]["data"]
    : (typeof sessionColumns)[K]["_"]["data"] | null;
};

let sessionQuery: string | undefined;

/**
 * The session lookup runs on every signed-in request, so it is a prepared statement (planned once); its
 * text comes from the schema through Drizzle.
 */
async function findSession(tokenHash: string): Promise<SessionRow | undefined> {
  sessionQuery ??= db()
    .select(sessionColumns)
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .leftJoin(readingSettings, eq(readingSettings.userId, users.id))
    // A suspended account's sessions were ended; one made at the same moment is never honoured either.
    .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), isNull(users.suspendedAt)))
    .toSQL().sql;
  const [values] = await getDatabase().preparedRows("session_lookup", sessionQuery, [tokenHash]);
  if (!values) return undefined;
  return Object.fromEntries(
    Object.keys(sessionColumns).map((key, index) => [key, values[index]]),
  ) as SessionRow;
}

/** The user of a session token, in one query, or undefined when the session is unknown or has expired. */
export async function lookUpSessionToken(token: string): Promise<SessionUser | undefined> {
  return (await resolveSession(hashToken(token)))?.value;
}

/**
 * The user of a session token hash, and until when that answer holds without asking again: the session's
 * absolute expiry, its idle timeout and the moment its last-seen mark is next due, whichever comes first.
 */
async function resolveSession(tokenHash: string): Promise<{ value: SessionUser; until: number } | undefined> {
  const row = await findSession(tokenHash);
  if (!row) return undefined;
  const now = Date.now();
  const lifetime = row.remember ? sessionLifetimes.remember : sessionLifetimes.normal;
  if (row.expiresAt.getTime() <= now || row.lastSeenAt.getTime() + lifetime.idleMs <= now) {
    await db().delete(sessions).where(eq(sessions.id, row.sessionId));
    return undefined;
  }
  let lastSeen = row.lastSeenAt.getTime();
  if (now - lastSeen > TOUCH_EVERY_MS) {
    await db()
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.sessionId));
    lastSeen = now;
  }
  const until = Math.min(row.expiresAt.getTime(), lastSeen + lifetime.idleMs, lastSeen + TOUCH_EVERY_MS);
  const {
    passwordHash,
    emailConfirmedAt,
    remember: _remember,
    lastSeenAt: _lastSeen,
    expiresAt: _expires,
    ...fields
  } = row;
  const user = Object.fromEntries(Object.entries(fields).filter(([key]) => !(key in settingColumns))) as Omit<
    typeof fields,
    keyof ReadingSettings
  >;
  // Every setting or none (no row yet).
  const saved = settingKeys.every((key) => row[key] !== null);
  return {
    until,
    value: {
      ...user,
      hasPassword: passwordHash !== null,
      emailConfirmed: emailConfirmedAt !== null,
      readingSettings: saved
        ? (Object.fromEntries(settingKeys.map((key) => [key, row[key]])) as ReadingSettings)
        : defaultSettings,
    },
  };
}

/** Session events are kept this long: far longer than any instance goes between two reads. */
const EVENTS_KEPT_MS = 10 * 60 * 1000;
const EVENTS_PER_READ = 1000;

/**
 * Reads `session_events` for a session cache (ADR 49): the database epoch and the newest event's id (ADR 61),
 * and the readers named since `after`, a thousand at most a read (the rest at the next); with no `after`, or
 * no event past it, that first statement alone. Now and then it also deletes events older than ten minutes,
 * all but the newest, so the newest id still says where the events stand after a quiet spell.
 */
export function sessionEventReader(database: () => Database): EventReader {
  let reads = 0;
  return async (after) => {
    if (++reads % 240 === 0)
      await database()
        .delete(sessionEvents)
        .where(
          and(
            lt(sessionEvents.createdAt, new Date(Date.now() - EVENTS_KEPT_MS)),
            lt(sessionEvents.id, sql`(select max(${sessionEvents.id}) from ${sessionEvents})`),
          ),
        );
    const [head] = await database()
      .select({ epoch: databaseEpochValue, newest: max(sessionEvents.id) })
      .from(sessionEvents);
    const epoch = head?.epoch ?? "";
    const newest = Number(head?.newest ?? 0);
    if (after === undefined || newest <= after) return { epoch, newest, last: after ?? newest, userIds: [] };
    const rows = await database()
      .select({
        id: sessionEvents.id,
        userId: sessionEvents.userId,
        touchesSession: sessionEvents.touchesSession,
      })
      .from(sessionEvents)
      .where(gt(sessionEvents.id, after))
      .orderBy(asc(sessionEvents.id))
      .limit(EVENTS_PER_READ);
    return {
      epoch,
      newest,
      last: rows.at(-1)?.id ?? after,
      userIds: rows.filter((row) => row.touchesSession).map((row) => row.userId),
      ownRecordIds: rows.filter((row) => !row.touchesSession).map((row) => row.userId),
    };
  };
}

/**
 * A kept session (ADR 49) with the reader's membership tier, which decides whether a signed-in reader waits
 * for an unreleased chapter or reads it ahead (ADR 51): the viewer check of a reader waiting for a release
 * then costs no query either.
 */
export type KeptSessionUser = SessionUser & {
  membershipTier: MembershipTier;
  /**
   * The ids of the chapters the reader unlocked with coins, when they are few enough to keep
   * (`MAX_KEPT_UNLOCKS`; else undefined, and each check asks): a coin chapter's lock, asked by the viewer check
   * and every progress write, then costs no query (ADR 79). An unlock writes a session event.
   */
  unlockedChapterIds?: ReadonlySet<number>;
  /**
   * Whether a subscription of theirs still gives its tier (their fundraiser page is their own), and their
   * cart's lines (readers with the same cart share a shop page): ADR 102. Both change only with a row that
   * writes a session event (migrations 0025, 0045), or with time, which ends the kept session too.
   */
  subscribed: boolean;
  cart: readonly CartLine[];
};

const MAX_KEPT_UNLOCKS = 256;

/**
 * What a kept session adds to the session, in one statement planned once: the membership, the unlocks and
 * the cart's lines (as `getCart` reads them).
 */
const keptFactsStatement = `select ${membershipSql("$1")},
  (select coalesce(json_agg(u.chapter_id), '[]') from (select chapter_id from chapter_unlocks
    where user_id = $1 limit ${MAX_KEPT_UNLOCKS + 1}) u),
  (select coalesce(json_agg(json_build_object('productId', c.product_id, 'variantId', c.variant_id,
    'quantity', c.quantity) order by c.id), '[]') from (select id, product_id, variant_id, quantity
    from cart_items where user_id = $1 order by id limit ${MAX_CART_LINES}) c)`;

/** This instance's kept sessions (ADR 49): followed once the server starts `followSessionEvents`. */
const kept = new SessionCache<KeptSessionUser>(sessionEventReader(db));

/**
 * The user of a session token as the page cache's viewer check needs it (features/page-cache): from memory
 * while this instance follows the session events, else from the database. For deciding which kept page a
 * reader shares, never for their own pages or any write, which read the session afresh (`getSessionUser`).
 * Kept per position of the release clock, which a test may move (ADR 39): a tier ends on that clock.
 */
export function cachedSessionUser(token: string): Promise<KeptSessionUser | undefined> {
  const tokenHash = hashToken(token);
  return kept.get(keptKey(tokenHash), () => resolveKeptSession(tokenHash));
}

/** As `cachedSessionUser` when the session is kept in memory, else undefined (no promise: the page cache's hit path). */
export function keptSessionUser(token: string): KeptSessionUser | undefined {
  return kept.peek(keptKey(hashToken(token)));
}

const keptKey = (tokenHash: string) => `${tokenHash} ${clockOffsetMs()}`;

/**
 * The session and the reader's membership tier, trusted until the first of the session's own deadline and
 * the tier's end. Whatever changes a tier writes a session event (migration 0025), and this instance's
 * payment events and grants forget the reader at once (`forgetKeptSessions`).
 */
async function resolveKeptSession(
  tokenHash: string,
): Promise<{ value: KeptSessionUser; until: number } | undefined> {
  const session = await resolveSession(tokenHash);
  if (!session) return undefined;
  const now = releaseTimeMs();
  const [row] = await getDatabase().preparedRows("kept_facts", keptFactsStatement, [
    String(session.value.id),
  ]);
  const [total, grants, subscriptions, unlocked, cart] = (row ?? [0, [], [], [], []]) as [
    ...MembershipColumns,
    number[],
    CartLine[],
  ];
  const columns: MembershipColumns = [total, grants, subscriptions];
  const membership = membershipFromColumns(columns, new Date(now));
  const tierEnds = membership.until
    ? Date.now() + (membership.until.getTime() - now)
    : Number.POSITIVE_INFINITY;
  return {
    value: {
      ...session.value,
      membershipTier: membership.tier,
      subscribed: subscribedFromColumns(columns, new Date(now)),
      cart,
      ...(unlocked.length <= MAX_KEPT_UNLOCKS ? { unlockedChapterIds: new Set(unlocked) } : {}),
    },
    until: Math.min(session.until, tierEnds),
  };
}

/**
 * For a write request (any method but GET and HEAD) carrying a session: a function that forgets the writer's
 * kept session and own pages on this instance, to be called once the write is answered, so what they ask for
 * next shows what it changed (ADR 53). Other instances learn it from the events the write's rows raise. The
 * writer is known from their kept session when it is kept (no query), else read, and kept, before the write
 * runs (a write may end the session). Called with `"own records"` (a write that changed only the reader's own records,
 * `SESSION_UNCHANGED_HEADER`), it keeps their sessions and forgets their own pages alone (ADR 79).
 */
export function forgetWriterWhenAnswered(
  token: string,
): (scope?: "session" | "own records") => Promise<void> {
  // Read through the kept sessions, so the write's own handler, which may read the kept session too (the
  // progress endpoints), finds it kept rather than asking the database a second time.
  const writer = cachedSessionUser(token).then(
    (user) => user?.id,
    () => undefined,
  );
  let forgotten: Promise<void> | undefined;
  return (scope = "session") => {
    forgotten ??= writer.then((userId) => {
      if (userId === undefined) return;
      if (scope === "own records") kept.touchUser(userId);
      else kept.forgetUser(userId);
    });
    return forgotten;
  };
}

/**
 * Set by a write's response (and removed before it leaves) when the write changed only the writer's own
 * records, nothing of their session: reading progress, hundreds a second on a release evening, keeps the
 * reader's kept session (ADR 79).
 */
export const SESSION_UNCHANGED_HEADER = "x-cc-session-unchanged";

/**
 * The signed-in reader of a request as kept in memory (ADR 49, ADR 79), read from the database only when not
 * kept: for the reading-progress endpoints, which change nothing but the reader's own progress and run for
 * every reader every 15 s. Every other write, and every page of the reader's own, reads the session afresh.
 */
export function getKeptSessionUser(request: Request): Promise<KeptSessionUser | undefined> {
  const token = readCookies(request).get(sessionCookieName());
  return token ? cachedSessionUser(token) : Promise.resolve(undefined);
}

/**
 * Where a reader's records stand on this instance (ADR 53): moves with every event for them and every change
 * this instance makes (`forgetKeptSessions`); undefined while the events are not followed.
 */
export function readerGeneration(userId: number): number | undefined {
  return kept.generation(userId);
}

/** Where all readers' records stand on this instance: moves with any reader's change (ADR 71). */
export function anyReaderGeneration(): number | undefined {
  return kept.anyReaderGeneration();
}

/** Forgets a reader's kept sessions on this instance at once (other instances read it from the events). */
export function forgetKeptSessions(userId: number): void {
  kept.forgetUser(userId);
}

export const followSessionEvents = (everyMs?: number) => kept.start(everyMs);
/** Reads the session events now, as the next tick of the follower would: tests wait on it, not on the timer. */
export const readSessionEvents = () => kept.poll();
export const stopFollowingSessionEvents = () => kept.stop();

/** Ends the request's session on the server; returns the header that clears the cookie. */
export async function destroySession(request: Request, meta?: RequestMeta): Promise<string> {
  const user = await getSessionUser(request);
  if (user) {
    await db().delete(sessions).where(eq(sessions.id, user.sessionId));
    kept.forgetUser(user.id);
    logger.info({ event: "session.revoked", reason: "sign-out", userId: user.id, ...meta }, "signed out");
  }
  return clearSessionCookie();
}

/** Revokes every session of a user, or every one but `keep`. */
export async function revokeSessions(userId: number, keep?: number, meta?: RequestMeta): Promise<void> {
  await db()
    .delete(sessions)
    .where(
      keep === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, keep)),
    );
  kept.forgetUser(userId);
  logger.info(
    { event: "session.revoked", reason: "revoke-all", userId, keptSession: keep !== undefined, ...meta },
    "sessions revoked",
  );
}
