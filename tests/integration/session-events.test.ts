import { eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import {
  membershipGrants,
  payments,
  readingSettings,
  sessionEvents,
  sessions,
  subscriptions,
  users,
} from "#db/schema";
import { grantMembershipDays } from "~/features/account/readers.server";
import {
  cachedSessionUser,
  followSessionEvents,
  readSessionEvents,
  revokeSessions,
  stopFollowingSessionEvents,
} from "~/features/auth/session.server";
import { processEvent } from "~/features/payments/fulfil.server";
import { saveReadingSettings } from "~/features/reader/queries.server";
import { defaultSettings } from "~/features/reading-settings/settings";
import { holdClock, passSeconds, releaseClock } from "../support/clock";
import { drivers, openTestDatabase, twoPostgresInstances } from "../support/database";
import { createAuthor, createReader, grantMembership } from "../support/factories";

const token = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1);

async function eventsSince(id: number) {
  const rows = await db().select().from(sessionEvents).where(gt(sessionEvents.id, id));
  return rows.map((row) => row.userId);
}

async function lastEvent() {
  const rows = await db().select({ id: sessionEvents.id }).from(sessionEvents);
  return Math.max(0, ...rows.map((row) => row.id));
}

describe.each(drivers)("session events on %s (ADR 49)", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
  });
  afterAll(async () => {
    stopFollowingSessionEvents();
    await handle.close();
  });

  it("are written for every change that ends or alters a session, for that reader alone", async () => {
    const reader = await createReader({ prefix: "events" });
    const other = await createReader({ prefix: "other" });
    let from = await lastEvent();
    await db().update(users).set({ coinBalance: 7 }).where(eq(users.id, other.id));
    expect(await eventsSince(from)).toEqual([other.id]);
    from = await lastEvent();
    await saveReadingSettings(reader.id, {
      ...defaultSettings,
      fontSize: 20,
      fontFamily: "sans-serif",
      lineHeight: 2,
    });
    await db().update(users).set({ role: "author" }).where(eq(users.id, reader.id));
    await db().update(users).set({ suspendedAt: new Date() }).where(eq(users.id, reader.id));
    await db().delete(sessions).where(eq(sessions.userId, reader.id));
    const events = await eventsSince(from);
    expect(new Set(events)).toEqual(new Set([reader.id]));
    expect(events.length).toBeGreaterThanOrEqual(4);
    // A deleted account takes its session and its settings with it: each says so.
    const leaving = await createReader({ prefix: "leaving" });
    await saveReadingSettings(leaving.id, {
      ...defaultSettings,
      fontSize: 18,
      fontFamily: "serif",
      lineHeight: 1.75,
    });
    from = await lastEvent();
    await db().delete(users).where(eq(users.id, leaving.id));
    const left = await eventsSince(from);
    expect(new Set(left)).toEqual(new Set([leaving.id]));
    expect(left.length).toBeGreaterThanOrEqual(2);
  });

  it("are written whenever a reader's membership tier may change (ADR 51)", async () => {
    const reader = await createReader({ prefix: "tier" });
    const from = await lastEvent();
    await grantMembership(reader.id, 30);
    await db()
      .update(membershipGrants)
      .set({ revokedAt: new Date() })
      .where(eq(membershipGrants.userId, reader.id));
    const [payment] = await db()
      .insert(payments)
      .values({
        userId: reader.id,
        kind: "coins",
        provider: "test",
        amountCents: 500,
        currency: "USD",
        description: "x",
      })
      .returning({ id: payments.id });
    await db()
      .update(payments)
      .set({ status: "paid" })
      .where(eq(payments.id, Number(payment?.id)));
    // Not every change of a payment: its description moves no tier.
    await db()
      .update(payments)
      .set({ description: "y" })
      .where(eq(payments.id, Number(payment?.id)));
    await db()
      .insert(subscriptions)
      .values({
        userId: reader.id,
        provider: "test",
        providerSubscriptionId: `sub-${reader.id}`,
        tierKey: "analyst",
        status: "active",
        currentPeriodEnd: new Date(Date.now() + 86_400_000),
      });
    expect(await eventsSince(from)).toEqual(Array(5).fill(reader.id));
    // A payment of a deleted account (no reader) is written and noted for nobody.
    const before = await lastEvent();
    await db().insert(payments).values({
      userId: null,
      kind: "coins",
      provider: "test",
      amountCents: 500,
      currency: "USD",
      description: "z",
    });
    expect(await eventsSince(before)).toEqual([]);
  });

  it("are written by every table holding a reader's rows, and by any change to the account (ADR 53)", async () => {
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await db().execute(query)) as unknown as { rows: { name: string }[] }).rows.map((row) => row.name);
    const owned = await rows(sql`
      select c.table_name as name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.column_name = 'user_id' and c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`);
    const noted = await rows(sql`
      select distinct r.relname as name from pg_trigger g join pg_class r on r.oid = g.tgrelid
      join pg_proc f on f.oid = g.tgfoid
      where not g.tgisinternal and f.proname in
        ('note_session_event', 'note_reader_event')`);
    expect(owned.length).toBeGreaterThan(15);
    expect(owned.filter((table) => table !== "session_events" && !noted.includes(table)).sort()).toEqual([]);
    // The account row itself: any change (the e-mail here), and no event for an update that changes nothing.
    const reader = await createReader({ prefix: "account" });
    let from = await lastEvent();
    await db()
      .update(users)
      .set({ email: `new-${reader.email}` })
      .where(eq(users.id, reader.id));
    expect(await eventsSince(from)).toEqual([reader.id]);
    from = await lastEvent();
    await db()
      .update(users)
      .set({ email: `new-${reader.email}` })
      .where(eq(users.id, reader.id));
    expect(await eventsSince(from)).toEqual([]);
  });

  it("keep the reader's membership tier with the session: until it ends, and forgotten when it changes here", async () => {
    const reader = await createReader({ prefix: "tiered" });
    // Events read once, then not for a minute: only this instance's own forgetting can show a change.
    await followSessionEvents(60_000);
    expect((await cachedSessionUser(token(reader.cookie)))?.membershipTier).toBe("free");
    expect(await grantMembershipDays(reader.id, 30, "Thanks", await createAuthor("tiers"))).toEqual({
      ok: true,
    });
    expect((await cachedSessionUser(token(reader.cookie)))?.membershipTier).toBe("observer");
    // A payment confirmed through this instance (the provider's event): $100 spent makes a First Human.
    await db()
      .insert(payments)
      .values({
        userId: reader.id,
        kind: "coins",
        provider: "test",
        providerSessionId: `tier-${reader.id}`,
        amountCents: 100_00,
        currency: "USD",
        description: "Coins",
      });
    await processEvent("test", {
      id: `evt-tier-${reader.id}`,
      type: "checkout.approved",
      effect: { kind: "paid", sessionId: `tier-${reader.id}`, amountCents: 100_00, currency: "USD" },
    });
    expect((await cachedSessionUser(token(reader.cookie)))?.membershipTier).toBe("first_human");
    stopFollowingSessionEvents();
    // Thirty days granted thirty days less a minute ago, on a held clock: kept as a member until the grant
    // runs out, then free (the session's own deadline, its last-seen mark due in five minutes, is further).
    const ending = await createReader({ prefix: "ending" });
    holdClock();
    try {
      await db()
        .insert(membershipGrants)
        .values({ userId: ending.id, days: 30, grantedAt: new Date(Date.now() - 30 * 86_400_000 + 60_000) });
      await followSessionEvents(60_000);
      expect((await cachedSessionUser(token(ending.cookie)))?.membershipTier).toBe("observer");
      passSeconds(59);
      expect((await cachedSessionUser(token(ending.cookie)))?.membershipTier).toBe("observer");
      passSeconds(1);
      expect((await cachedSessionUser(token(ending.cookie)))?.membershipTier).toBe("free");
    } finally {
      releaseClock();
      stopFollowingSessionEvents();
    }
  });

  it("keep a session in memory for the viewer check; a revocation on this instance forgets it at once", async () => {
    const reader = await createReader({ prefix: "kept" });
    await followSessionEvents(25);
    expect((await cachedSessionUser(token(reader.cookie)))?.id).toBe(reader.id);
    // Gone from the database behind the cache's back (no event is read yet): still answered from memory,
    // which is what saves the query.
    await db().execute("alter table sessions disable trigger sessions_session_event");
    await db().delete(sessions).where(eq(sessions.userId, reader.id));
    await db().execute("alter table sessions enable trigger sessions_session_event");
    expect((await cachedSessionUser(token(reader.cookie)))?.id).toBe(reader.id);
    // Sign out everywhere on this instance: forgotten before it returns.
    await revokeSessions(reader.id);
    expect(await cachedSessionUser(token(reader.cookie))).toBeUndefined();
    stopFollowingSessionEvents();
  });
});

/**
 * Two app instances (two pools) on one PostgreSQL: a change made through the second is seen by the first's
 * kept sessions at its next read of the session events, for every way a session ends or changes. The reads
 * are the test's (`readSessionEvents`), not the timer's: until one, the first still answers from memory, so
 * what it then sees came through the events. The timer reads them every 250 ms (session-cache.server.test.ts).
 */
describe.skipIf(!drivers.includes("postgres"))("kept sessions across two instances on postgres", () => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ first, second, close } = await twoPostgresInstances({ content: false }));
    // Followed, but never by the timer during a test: each read is the test's.
    await followSessionEvents(3_600_000);
  });
  afterAll(async () => {
    stopFollowingSessionEvents();
    await close();
  });

  /**
   * Makes the change through the second instance, checks the first still holds what it kept (`kept`), then
   * reads the events once and checks the first now sees the change (`seen`).
   */
  async function seenAtNextRead(
    change: () => Promise<unknown>,
    kept: () => Promise<boolean>,
    seen: () => Promise<boolean>,
  ) {
    await change();
    expect(await kept()).toBe(true);
    await readSessionEvents();
    expect(await seen()).toBe(true);
  }

  const cases: [string, (reader: { id: number; cookie: string }) => Promise<unknown>][] = [
    [
      "sign-out (this session deleted)",
      (reader) => second.db.delete(sessions).where(eq(sessions.userId, reader.id)),
    ],
    [
      "sign out everywhere and password reset (every session of the account deleted)",
      (reader) => second.db.delete(sessions).where(eq(sessions.userId, reader.id)),
    ],
    [
      "suspension (the account marked suspended; its sessions are never honoured)",
      (reader) => second.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, reader.id)),
    ],
  ];

  for (const [name, revoke] of cases)
    it(`stops honouring a session at the next read of the events: ${name}`, async () => {
      const reader = await createReader({ prefix: "twin" });
      // Kept by the first instance, and used there (as wrk would) the whole time.
      expect((await cachedSessionUser(token(reader.cookie)))?.id).toBe(reader.id);
      await seenAtNextRead(
        () => revoke(reader),
        async () => (await cachedSessionUser(token(reader.cookie)))?.id === reader.id,
        async () => (await cachedSessionUser(token(reader.cookie))) === undefined,
      );
    });

  it("follows a membership granted or revoked through the other instance at the next read (ADR 51)", async () => {
    const reader = await createReader({ prefix: "twin" });
    const tier = async () => (await cachedSessionUser(token(reader.cookie)))?.membershipTier;
    expect(await tier()).toBe("free");
    await seenAtNextRead(
      () =>
        second.db.insert(membershipGrants).values({ userId: reader.id, days: 180, grantedAt: new Date() }),
      async () => (await tier()) === "free",
      async () => (await tier()) === "first_human",
    );
    await seenAtNextRead(
      () =>
        second.db
          .update(membershipGrants)
          .set({ revokedAt: new Date() })
          .where(eq(membershipGrants.userId, reader.id)),
      async () => (await tier()) === "first_human",
      async () => (await tier()) === "free",
    );
  });

  it("follows a role change and new reading settings at the next read", async () => {
    const reader = await createReader({ prefix: "twin" });
    const user = () => cachedSessionUser(token(reader.cookie));
    expect((await user())?.role).toBe("reader");
    await seenAtNextRead(
      () => second.db.update(users).set({ role: "author" }).where(eq(users.id, reader.id)),
      async () => (await user())?.role === "reader",
      async () => (await user())?.role === "author",
    );
    await seenAtNextRead(
      () =>
        second.db
          .insert(readingSettings)
          .values({ userId: reader.id, fontSize: 20, fontFamily: "sans-serif", lineHeight: 2 })
          .onConflictDoNothing(),
      async () => (await user())?.readingSettings.fontSize !== 20,
      async () => (await user())?.readingSettings.fontSize === 20,
    );
    // Nothing was left behind for a session that still exists.
    const rows = await first.db.select().from(sessions).where(eq(sessions.userId, reader.id));
    expect(rows).toHaveLength(1);
  });
});
