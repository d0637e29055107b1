import { eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { coinLedger, readingDays, readingProgress, sessions, users } from "#db/schema";
import { WELCOME_COINS } from "~/features/coins/constants";
import { hashToken } from "~/lib/tokens.server";
import { countWords } from "~/lib/words";
import { drivers, openTestDatabase } from "../../../tests/support/database";
import { generateLargeSerial, insertGeneratedReaders, insertGeneratedSessions } from "./generate.server";

describe("generateLargeSerial", () => {
  it("makes 1,000 chapters of 3,000-5,000 words in 10 volumes, the same every time", () => {
    const bundle = generateLargeSerial();
    expect(bundle.volumes.map((v) => v.data.number)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(bundle.chapters).toHaveLength(1000);
    for (const chapter of bundle.chapters.filter((_, i) => i % 97 === 0)) {
      const words = countWords(chapter.body);
      expect(words).toBeGreaterThanOrEqual(3000);
      expect(words).toBeLessThanOrEqual(5100);
    }
    expect(new Set(bundle.chapters.map((c) => c.data.volume)).size).toBe(10);
    expect(generateLargeSerial().chapters[500]?.body).toBe(bundle.chapters[500]?.body);
  });
});

describe.each(drivers)("insertGeneratedReaders on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("adds the readers not there yet, each with chapters read, a reading day, a confirmed address and the welcome coins, and nobody can sign in as them", async () => {
    expect(await insertGeneratedReaders(handle.db, 25)).toBe(25);
    expect(await insertGeneratedReaders(handle.db, 30)).toBe(5);
    const generated = await handle.db.select().from(users).where(like(users.email, "%@readers.example"));
    expect(generated).toHaveLength(30);
    expect(generated.every((reader) => reader.passwordHash === null)).toBe(true);
    expect(generated.every((reader) => reader.emailConfirmedAt !== null)).toBe(true);
    const ids = generated.map((reader) => reader.id);
    const progress = await handle.db
      .select()
      .from(readingProgress)
      .where(inArray(readingProgress.userId, ids));
    expect(progress.length).toBe(ids.reduce((sum, id) => sum + 1 + (id % 10), 0));
    const days = await handle.db.select().from(readingDays).where(inArray(readingDays.userId, ids));
    expect(days).toHaveLength(30);
    // The welcome coins as registration books them: the balance and its ledger entry.
    expect(generated.every((reader) => reader.coinBalance === WELCOME_COINS)).toBe(true);
    const welcome = await handle.db.select().from(coinLedger).where(inArray(coinLedger.userId, ids));
    expect(welcome.map((entry) => [entry.reason, entry.delta, entry.idempotencyKey]).sort()).toEqual(
      ids.map((id) => ["welcome", WELCOME_COINS, `welcome:${id}`]).sort(),
    );
  });

  it("refuses a count that is not a whole number from 1 to 1,000,000", async () => {
    for (const count of [0, -1, 1.5, Number.NaN, 1_000_001])
      await expect(insertGeneratedReaders(handle.db, count)).rejects.toThrow(/count/);
  });

  it("signs in the first generated readers, one new session each, stored as the cookie's hash", async () => {
    const cookies = await insertGeneratedSessions(handle.db, 20);
    expect(new Set(cookies).size).toBe(20);
    const stored = await handle.db
      .select({ userId: sessions.userId, email: users.email })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        inArray(
          sessions.tokenHash,
          cookies.map((cookie) => hashToken(cookie.replace(/^session=/, ""))),
        ),
      );
    expect(stored.map((row) => row.email).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `reader${String(i + 1).padStart(5, "0")}@readers.example`),
    );
    await expect(insertGeneratedSessions(handle.db, 31)).rejects.toThrow(/only 30 generated readers/);
    await expect(insertGeneratedSessions(handle.db, 0)).rejects.toThrow(/count/);
  });
});
