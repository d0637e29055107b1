import { eq, gt, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import {
  cartItems,
  chapters,
  chapterUnlocks,
  coinLedger,
  readingDays,
  readingProgress,
  readingSettings,
  sessions,
  users,
} from "#db/schema";
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

  it("adds the readers not there yet, each with chapters read, a reading day, a confirmed address, the welcome coins, some unlocks and type sizes, and nobody can sign in as them", async () => {
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
    // The welcome coins as registration books them, less what every third reader spent on the first coin
    // chapters, in order: each balance is its ledger's sum, each unlock booked once.
    const ledger = await handle.db.select().from(coinLedger).where(inArray(coinLedger.userId, ids));
    expect(
      ledger
        .filter((entry) => entry.reason === "welcome")
        .map((entry) => entry.idempotencyKey)
        .sort(),
    ).toEqual(ids.map((id) => `welcome:${id}`).sort());
    for (const reader of generated) {
      const own = ledger.filter((entry) => entry.userId === reader.id);
      expect(reader.coinBalance).toBe(own.reduce((sum, entry) => sum + entry.delta, 0));
    }
    const unlocks = await handle.db.select().from(chapterUnlocks).where(inArray(chapterUnlocks.userId, ids));
    expect(unlocks.length).toBe(ledger.filter((entry) => entry.reason === "unlock").length);
    const coinChapters = await handle.db
      .select({ id: chapters.id, number: chapters.number })
      .from(chapters)
      .where(gt(chapters.coinsRequired, 0))
      .orderBy(chapters.number);
    const n = (reader: { username: string }) => Number(reader.username.slice("reader".length));
    for (const reader of generated) {
      const mine = unlocks.filter((unlock) => unlock.userId === reader.id).map((unlock) => unlock.chapterId);
      const expected = n(reader) % 3 === 0 ? coinChapters.slice(0, 1 + (Math.floor(n(reader) / 3) % 3)) : [];
      expect(mine.sort(), reader.username).toEqual(expected.map((chapter) => chapter.id).sort());
    }
    expect(generated.filter((reader) => n(reader) % 3).every((r) => r.coinBalance === WELCOME_COINS)).toBe(
      true,
    );
    // Every fifth reader chose a type size: the others read in the default one (no row).
    const settings = await handle.db
      .select()
      .from(readingSettings)
      .where(inArray(readingSettings.userId, ids));
    expect(settings.map((row) => row.userId).sort()).toEqual(
      generated
        .filter((reader) => n(reader) % 5 === 0)
        .map((reader) => reader.id)
        .sort(),
    );
    expect(new Set(settings.map((row) => row.fontSize))).toEqual(new Set([14, 18, 20]));
    // Every seventh reader has one to three of a product in their cart.
    const carts = await handle.db.select().from(cartItems).where(inArray(cartItems.userId, ids));
    expect(carts.map((row) => row.userId).sort()).toEqual(
      generated
        .filter((reader) => n(reader) % 7 === 0)
        .map((reader) => reader.id)
        .sort(),
    );
    expect(new Map(carts.map((row) => [row.userId, row.quantity]))).toEqual(
      new Map(
        generated
          .filter((reader) => n(reader) % 7 === 0)
          .map((reader) => [reader.id, 1 + (Math.floor(n(reader) / 7) % 3)]),
      ),
    );
    expect(carts.every((row) => row.variantId === null)).toBe(true);
  });

  it("refuses a count that is not a whole number from 1 to 1,000,000", async () => {
    for (const count of [0, -1, 1.5, Number.NaN, 1_000_001])
      await expect(insertGeneratedReaders(handle.db, count)).rejects.toThrow(/count/);
  });

  it("signs in the first generated readers, one new session each, stored as the cookie's hash, last seen apart", async () => {
    const cookies = await insertGeneratedSessions(handle.db, 20);
    expect(new Set(cookies).size).toBe(20);
    const stored = await handle.db
      .select({ userId: sessions.userId, email: users.email, lastSeenAt: sessions.lastSeenAt })
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
    // Last seen a second apart over the past minutes, so their touches do not fall due at once.
    const seen = new Set(stored.map((row) => Math.round(row.lastSeenAt.getTime() / 1000)));
    expect(seen.size).toBe(20);
    for (const row of stored) expect(Date.now() - row.lastSeenAt.getTime()).toBeLessThan(5 * 60_000 + 60_000);
    await expect(insertGeneratedSessions(handle.db, 31)).rejects.toThrow(/only 30 generated readers/);
    await expect(insertGeneratedSessions(handle.db, 0)).rejects.toThrow(/count/);
  });
});
