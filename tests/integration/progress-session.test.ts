import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { sessions, users } from "#db/schema";
import {
  cachedSessionUser,
  followSessionEvents,
  forgetKeptSessions,
  keptSessionUser,
  readerGeneration,
  readSessionEvents,
  SESSION_UNCHANGED_HEADER,
  stopFollowingSessionEvents,
} from "~/features/auth/session.server";
import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { chapterLock } from "~/features/reader/access.server";
import { emptyProgress } from "~/features/reader/progress";
import { action } from "~/routes/reader/progress";
import { forgetWriterOnAnswer, writerAnswered } from "../../server/writer";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantCoins, type TestReader } from "../support/factories";
import { countStatements } from "../support/statements";

/**
 * Reading progress on a release evening (ADR 79): every reader writes it every 15 s, so the write reads the
 * reader's kept session (no query) and, having changed only their own records, keeps it: their own pages are
 * forgotten, their session is not. A write that changed their session (a new time zone) forgets it.
 */
const meta = { requestId: "test", ip: "203.0.113.9" };
const token = (reader: TestReader) => reader.cookie.split("=")[1] ?? "";

function progressWrite(reader: TestReader, zone = "UTC") {
  const progress = { ...emptyProgress(), paragraph: 2, lastReadAt: new Date().toISOString() };
  const request = new Request("http://localhost/reader/progress", {
    method: "POST",
    headers: {
      cookie: `${reader.cookie}; tz=${encodeURIComponent(zone)}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ entries: [{ chapter: 1, progress }] }),
  });
  return action({ request, params: {}, context: { ip: "203.0.113.9" } } as never);
}

/** The response headers a write's answer carries, as the server reads them (server/writer.ts). */
function answerHeaders(result: unknown): Headers {
  const init = (result as { init?: { headers?: HeadersInit } }).init;
  return new Headers(init?.headers);
}

/** The server's side of a write: the writer looked up when it arrives, forgotten once it is answered. */
async function answer(reader: TestReader, headers: Headers) {
  const req = { method: "POST", headers: { cookie: reader.cookie } } as unknown as IncomingMessage;
  const res = new EventEmitter() as unknown as ServerResponse;
  forgetWriterOnAnswer(req, res);
  await writerAnswered(req, res, { status: 200, headers });
}

describe.each(drivers)("reading progress and the kept session on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    await followSessionEvents(3_600_000);
  });
  afterAll(async () => {
    stopFollowingSessionEvents();
    await handle.close();
  });

  it("reads no session and keeps it: only the reader's own pages are forgotten", async () => {
    const reader = await createReader({ prefix: "evening" });
    expect(await cachedSessionUser(token(reader))).toMatchObject({ id: reader.id });
    const counted = await countStatements(handle, async () => {
      const headers = answerHeaders(await progressWrite(reader));
      expect(headers.get(SESSION_UNCHANGED_HEADER)).toBe("1");
      await answer(reader, headers);
      // The mark is the server's alone: removed before the answer leaves.
      expect(headers.has(SESSION_UNCHANGED_HEADER)).toBe(false);
    });
    expect(counted.prepared).toBe(0);
    const generation = readerGeneration(reader.id);
    await answer(reader, answerHeaders(await progressWrite(reader)));
    expect(keptSessionUser(token(reader))).toMatchObject({ id: reader.id });
    expect(readerGeneration(reader.id)).not.toBe(generation);
  });

  it("forgets the kept session when the write moved the reader's time zone, or any other write", async () => {
    const reader = await createReader({ prefix: "evening-zone" });
    await cachedSessionUser(token(reader));
    const headers = answerHeaders(await progressWrite(reader, "Asia/Tokyo"));
    expect(headers.has(SESSION_UNCHANGED_HEADER)).toBe(false);
    await answer(reader, headers);
    expect(keptSessionUser(token(reader))).toBeUndefined();
    // The next lookup finds the new zone.
    expect(await cachedSessionUser(token(reader))).toMatchObject({ timeZone: "Asia/Tokyo" });
    await answer(reader, new Headers());
    expect(keptSessionUser(token(reader))).toBeUndefined();
  });

  it("keeps the session when another instance's event says only the reader's own records changed", async () => {
    const reader = await createReader({ prefix: "evening-events" });
    await readSessionEvents();
    await cachedSessionUser(token(reader));
    const generation = readerGeneration(reader.id);
    // The progress row's event (as a write on another instance raises it): own records only.
    await progressWrite(reader);
    await readSessionEvents();
    expect(keptSessionUser(token(reader))).toMatchObject({ id: reader.id });
    expect(readerGeneration(reader.id)).not.toBe(generation);
    // The account row's event: what the session holds may have changed.
    await db().update(users).set({ coinBalance: 40 }).where(eq(users.id, reader.id));
    await readSessionEvents();
    expect(keptSessionUser(token(reader))).toBeUndefined();
    expect(await cachedSessionUser(token(reader))).toMatchObject({ coinBalance: 40 });
  });

  it("keeps the session through a last-seen mark and a new reading day, not through a session's new expiry", async () => {
    const reader = await createReader({ prefix: "evening-marks" });
    // Its sign-in's events read first: the session is kept after them.
    await readSessionEvents();
    await cachedSessionUser(token(reader));
    await db().update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.userId, reader.id));
    await db().update(users).set({ lastReadOn: "2026-11-28" }).where(eq(users.id, reader.id));
    await readSessionEvents();
    expect(keptSessionUser(token(reader))).toMatchObject({ id: reader.id });
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(sessions.userId, reader.id));
    await readSessionEvents();
    expect(keptSessionUser(token(reader))).toBeUndefined();
  });

  it("reads a writer's session once when it is not kept: the server's writer check and the endpoint share it", async () => {
    const reader = await createReader({ prefix: "evening-first" });
    await readSessionEvents();
    const counted = await countStatements(handle, async () => {
      forgetKeptSessions(reader.id);
      // As the server runs a write: the writer looked up as it arrives, then the endpoint, then the answer.
      const req = { method: "POST", headers: { cookie: reader.cookie } } as unknown as IncomingMessage;
      const res = new EventEmitter() as unknown as ServerResponse;
      forgetWriterOnAnswer(req, res);
      const headers = answerHeaders(await progressWrite(reader));
      await writerAnswered(req, res, { status: 200, headers });
    });
    // The session and the kept facts (membership, unlocks), each once.
    expect(counted.prepared).toBe(2);
    expect(keptSessionUser(token(reader))).toMatchObject({ id: reader.id });
  });

  it("reads a session to keep in two statements: the session, and the membership tier in one", async () => {
    const reader = await createReader({ prefix: "evening-kept" });
    await readSessionEvents();
    const counted = await countStatements(handle, async () => {
      forgetKeptSessions(reader.id);
      expect(await cachedSessionUser(token(reader))).toMatchObject({ membershipTier: "free" });
    });
    expect(counted.total).toBe(2);
  });

  it("keeps the chapters a reader unlocked: a coin chapter's lock asks nothing, and an unlock anywhere is seen", async () => {
    const reader = await createReader({ prefix: "evening-unlock" });
    await grantCoins(reader.id, 100);
    await readSessionEvents();
    const catalog = await getChapterCatalog();
    const coinChapters = catalog.published.filter((chapter) => chapterStatus(chapter, new Date()) === "paid");
    const [first, second] = coinChapters;
    if (!first || !second) throw new Error("the demo content has two coin chapters");
    expect((await unlockChapter(reader.id, first.number, new Date(), meta)).ok).toBe(true);
    await readSessionEvents();
    const user = await cachedSessionUser(token(reader));
    if (!user) throw new Error("signed in");
    const counted = await countStatements(handle, async () => {
      expect(await chapterLock(first, user)).toBeUndefined();
      expect(await chapterLock(second, user)).toMatchObject({ kind: "coins" });
    });
    expect(counted.total).toBe(0);
    // Unlocked through another instance: its event forgets the kept session, which then knows.
    expect((await unlockChapter(reader.id, second.number, new Date(), meta)).ok).toBe(true);
    await readSessionEvents();
    expect(keptSessionUser(token(reader))).toBeUndefined();
    const again = await cachedSessionUser(token(reader));
    expect(again && (await chapterLock(second, again))).toBeUndefined();
  });
});
