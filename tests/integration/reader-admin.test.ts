import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, coinLedger, sessions, users } from "#db/schema";
import { readerActionSchema } from "~/features/account/reader-forms";
import {
  adjustCoins,
  getReaderForAdmin,
  grantMembershipDays,
  searchReaders,
  setSuspended,
} from "~/features/account/readers.server";
import { authenticate } from "~/features/auth/commands.server";
import { createSession, lookUpSessionToken } from "~/features/auth/session.server";
import { getMembership } from "~/features/membership/queries.server";
import { parseForm } from "~/lib/forms";
import { drivers, openTestDatabase } from "../support/database";
import { coinBalance, createAuthor, createReader } from "../support/factories";

/** The token of a session cookie, from its `name=value` pair or a whole Set-Cookie header. */
const tokenOf = (cookie: string) => cookie.split(";")[0]?.split("=")[1] ?? "";

/** Setting a reader's balance to `coins` exactly, through the ledger (as an operator would). */
async function holding(userId: number, coins: number, actor: { via: "admin"; userId: number }) {
  const balance = await coinBalance(userId);
  if (balance !== coins) await adjustCoins(userId, coins - balance, "setting up the test", actor);
}

/** The admin's readers (ADR 40): search, coins, membership days, suspension. */
describe.each(drivers)("readers in the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("finds readers by username or e-mail, literally, and pages through them", async () => {
    const reader = await createReader({ prefix: "findme_x" });
    const found = await searchReaders({ q: "FINDME_X" });
    expect(found.readers.map((row) => row.id)).toEqual([reader.id]);
    expect((await searchReaders({ q: reader.email.toUpperCase() })).readers).toHaveLength(1);
    // % and _ are text, not wildcards: "findme%x" matches nothing.
    expect((await searchReaders({ q: "findme%x" })).readers).toHaveLength(0);
    expect(JSON.stringify(found)).not.toContain("password");
  });

  it("refuses -5 coins to a reader holding 3 and changes nothing; +5 is a ledger entry naming the author and reason", async () => {
    const author = await createAuthor("coinkeeper");
    const reader = await createReader({ prefix: "holder" });
    await holding(reader.id, 3, author);
    const entries = async () =>
      (await db().select().from(coinLedger).where(eq(coinLedger.userId, reader.id))).length;
    const audits = async () =>
      (
        await db()
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, "reader.coins"), eq(auditLog.subjectId, String(reader.id))))
      ).length;
    const [ledgerBefore, auditBefore] = [await entries(), await audits()];

    expect(await adjustCoins(reader.id, -5, "Chargeback", author)).toEqual({ ok: false, reason: "negative" });
    expect(await coinBalance(reader.id)).toBe(3);
    expect(await entries()).toBe(ledgerBefore);
    expect(await audits()).toBe(auditBefore);

    expect(await adjustCoins(reader.id, 5, "Sorry for the outage", author)).toEqual({ ok: true });
    expect(await coinBalance(reader.id)).toBe(8);
    const page = await getReaderForAdmin(reader.id);
    const author_ = (await db().select().from(users).where(eq(users.id, author.userId)))[0];
    expect(page?.coinBalance).toBe(8);
    expect(page?.ledger[0]).toMatchObject({
      delta: 5,
      reason: "admin",
      note: "Sorry for the outage",
      by: author_?.username,
    });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "reader.coins"), eq(auditLog.subjectId, String(reader.id))))
      .orderBy(auditLog.id)
      .limit(1)
      .offset(auditBefore);
    expect(entry).toMatchObject({
      actorId: author.userId,
      before: { balance: 3 },
      after: { balance: 8, delta: 5, note: "Sorry for the outage" },
    });
    expect(await adjustCoins(2_000_000_000, 5, "Nobody", author)).toEqual({ ok: false, reason: "notFound" });
  });

  it("grants membership days with a reason: the reader's tier rises, and the page says why", async () => {
    const author = await createAuthor("granter");
    const reader = await createReader({ prefix: "granted" });
    expect((await getMembership(reader.id)).tier).toBe("free");
    expect(await grantMembershipDays(reader.id, 60, "Beta reader thanks", author)).toEqual({ ok: true });
    const membership = await getMembership(reader.id);
    expect(membership).toMatchObject({ source: "grant" });
    expect(membership.tier).not.toBe("free");
    expect((await getReaderForAdmin(reader.id))?.membership.source).toBe("grant");
  });

  it("suspends an account: its sessions end, it cannot sign in, a session made anyway is not honoured; restored, it can", async () => {
    const author = await createAuthor("warden");
    const reader = await createReader({ prefix: "suspect", password: "secret1" });
    expect(await lookUpSessionToken(tokenOf(reader.cookie))).toBeDefined();
    expect(await setSuspended(reader.id, true, "Card testing", author)).toEqual({ ok: true });
    expect(await db().select().from(sessions).where(eq(sessions.userId, reader.id))).toEqual([]);
    expect(await lookUpSessionToken(tokenOf(reader.cookie))).toBeUndefined();
    expect(await authenticate(reader.email, "secret1")).toEqual({ id: reader.id, suspended: true });
    const late = tokenOf(await createSession(reader.id, { remember: false }));
    expect(await lookUpSessionToken(late)).toBeUndefined();
    expect((await getReaderForAdmin(reader.id))?.suspendedAt).not.toBeNull();

    expect(await setSuspended(reader.id, false, "Cleared", author)).toEqual({ ok: true });
    expect(await authenticate(reader.email, "secret1")).toEqual({ id: reader.id, suspended: false });
    expect(await lookUpSessionToken(late)).toBeDefined();
    const actions = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(reader.id)));
    expect(actions.map((row) => row.action)).toEqual(["reader.suspend", "reader.restore"]);
  });

  it("does not suspend an author", async () => {
    const author = await createAuthor("chief");
    const other = await createAuthor("deputy");
    expect(await setSuspended(other.userId, true, "Trying", author)).toEqual({ ok: false, reason: "author" });
  });
});

describe("the reader forms", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return parseForm(readerActionSchema, data);
  };

  it("need a reason and a confirmation, and numbers in range", () => {
    expect(form({ intent: "coins", delta: "-5", note: "Chargeback", confirm: "on" })).toMatchObject({
      ok: true,
    });
    expect(form({ intent: "coins", delta: "0", note: "Nothing", confirm: "on" })).toMatchObject({
      ok: false,
      errors: { delta: "admin.reader.errors.delta" },
    });
    expect(form({ intent: "coins", delta: "100001", note: "Too many", confirm: "on" })).toMatchObject({
      ok: false,
    });
    expect(form({ intent: "membership", days: "30", note: "ok", confirm: "on" })).toMatchObject({
      ok: false,
      errors: { note: "admin.reader.errors.note" },
    });
    expect(form({ intent: "membership", days: "3651", note: "Ten years", confirm: "on" })).toMatchObject({
      ok: false,
    });
    expect(form({ intent: "suspend", note: "Card testing" })).toMatchObject({
      ok: false,
      errors: { confirm: "admin.reader.errors.confirm" },
    });
  });

  it("never throw on any fields (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("intent", "delta", "days", "note", "confirm", "x"),
          fc.string({ maxLength: 400 }),
        ),
        (fields) => {
          const parsed = form(fields);
          if (parsed.ok && parsed.data.intent === "coins")
            expect(Math.abs(parsed.data.delta)).toBeLessThanOrEqual(100_000);
        },
      ),
    );
  });
});

describe.runIf(drivers.includes("postgres"))("readers in the admin under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("takes coins from a reader five times at once: never below zero, each coin accounted for", async () => {
    const author = await createAuthor("racekeeper");
    const reader = await createReader({ prefix: "racetaker" });
    await holding(reader.id, 7, author);
    const outcomes = await Promise.all([0, 1, 2, 3, 4].map(() => adjustCoins(reader.id, -3, "Race", author)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "negative")).toHaveLength(3);
    expect(await coinBalance(reader.id)).toBe(1);
  });

  it("suspends while the reader signs in: no session of theirs is honoured afterwards", async () => {
    for (let round = 0; round < 4; round++) {
      const author = await createAuthor("racewarden");
      const reader = await createReader({ prefix: "racesuspect" });
      const [, cookie] = await Promise.all([
        setSuspended(reader.id, true, "Race", author),
        createSession(reader.id, { remember: false }),
      ]);
      expect(await lookUpSessionToken(tokenOf(cookie))).toBeUndefined();
      expect(await lookUpSessionToken(tokenOf(reader.cookie))).toBeUndefined();
    }
  });
});
