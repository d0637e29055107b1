import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { db } from "#db/client.server";
import { chapters, chapterUnlocks, coinLedger, users, volumes } from "#db/schema";
import { parseDailyCap, saveAutoUnlock } from "~/features/coins/auto-unlock.server";
import { ledgerBalance } from "~/features/coins/ledger.server";
import { unlockVolume, volumeQuote } from "~/features/coins/volume-unlock.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import { loader as chapterLoader } from "~/routes/chapter";
import { action as volumeAction } from "~/routes/toc-volume-unlock";
import { drivers, openTestDatabase } from "../support/database";
import { coinBalance, createReader, grantCoins } from "../support/factories";
import { unique } from "../support/unique";

/**
 * Unlocking in one go (ADR 90): a reader's automatic unlocking spends one price per chapter reached, stops at
 * their daily cap and never on a prefetch; a volume's locked chapters unlock all or none.
 */
let volumeNumber = 500;

/** A volume of its own with `prices.length` released chapters (0 = free): their numbers. */
async function volumeWith(prices: number[]): Promise<{ volume: number; numbers: number[] }> {
  const number = ++volumeNumber;
  const [volume] = await db()
    .insert(volumes)
    .values({ number, title: unique("Volume "), summaryMd: "" })
    .returning({ id: volumes.id });
  const [last] = await db()
    .select({ n: sql<number>`coalesce(max(${chapters.number}), 0)`.mapWith(Number) })
    .from(chapters);
  const numbers = prices.map((_, i) => (last?.n ?? 0) + 1 + i);
  await db()
    .insert(chapters)
    .values(
      prices.map((coinsRequired, i) => ({
        number: numbers[i] as number,
        volumeId: volume?.id as number,
        title: unique("Chapter "),
        bodyMd: "The text.",
        wordCount: 2,
        releaseAt: new Date(Date.now() - 60_000),
        coinsRequired,
        status: "published" as const,
      })),
    );
  await refreshContentRevision();
  return { volume: number, numbers };
}

const unlocksOf = async (userId: number) =>
  (
    await db()
      .select({ number: chapters.number, auto: chapterUnlocks.auto })
      .from(chapterUnlocks)
      .innerJoin(chapters, eq(chapters.id, chapterUnlocks.chapterId))
      .where(eq(chapterUnlocks.userId, userId))
  ).sort((a, b) => a.number - b.number);

type ChapterData = { chapter: { lock?: { kind: string; auto?: string }; html?: string } };

/** The chapter page's loader as a reader's request reaches it (or as the browser's prefetch asks). */
async function reach(cookie: string, number: number, prefetch = false): Promise<ChapterData["chapter"]> {
  const request = new Request(`http://localhost/chapter/${number}.data`, {
    headers: { cookie, ...(prefetch ? { "sec-purpose": "prefetch" } : {}) },
  });
  const context = { documentRequest: false, documentOnly: {}, requestId: "test", ip: "127.0.0.1" } as never;
  const result = (await chapterLoader({ request, params: { id: String(number) }, context } as never)) as {
    data: ChapterData;
  };
  return result.data.chapter;
}

describe.each(drivers)("unlocking in one go on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("asks for a confirmation the first time, and checks the cap", async () => {
    const reader = await createReader({ prefix: "auto" });
    expect(await saveAutoUnlock(reader.id, { enabled: true, dailyCap: 3, confirmed: false })).toBe("confirm");
    const { numbers } = await volumeWith([2]);
    await reach(reader.cookie, numbers[0] as number);
    expect(await unlocksOf(reader.id)).toEqual([]);
    expect(await saveAutoUnlock(reader.id, { enabled: true, dailyCap: 3, confirmed: true })).toBe("saved");
    // Off and on again: the confirmation is kept.
    expect(await saveAutoUnlock(reader.id, { enabled: false, dailyCap: 3, confirmed: false })).toBe("saved");
    expect(await saveAutoUnlock(reader.id, { enabled: true, dailyCap: 3, confirmed: false })).toBe("saved");
    for (const bad of ["0", "51", "-1", "1e1", " 5", "5.0", "", "x", 3.5, null, "9".repeat(40)])
      expect(parseDailyCap(bad)).toBeUndefined();
    expect(parseDailyCap("50")).toBe(50);
  });

  it("spends exactly one price per chapter reached, never on a prefetch, and stops at the cap", async () => {
    const reader = await createReader({ prefix: "auto" });
    await grantCoins(reader.id, 20);
    const before = await coinBalance(reader.id);
    const { numbers } = await volumeWith([2, 2, 2, 2]);
    const [a, b, c, d] = numbers as [number, number, number, number];
    // Off: the normal locked page, nothing spent.
    expect((await reach(reader.cookie, a)).lock?.kind).toBe("coins");
    await saveAutoUnlock(reader.id, { enabled: true, dailyCap: 2, confirmed: true });
    // The chapter page's prefetch of the next chapter spends nothing.
    const prefetched = await reach(reader.cookie, a, true);
    expect(prefetched.lock?.auto).toBe("withheld");
    expect(await coinBalance(reader.id)).toBe(before);
    // Reaching it unlocks it: the text comes, one price is spent; reaching it again spends nothing.
    expect((await reach(reader.cookie, a)).lock).toBeUndefined();
    expect((await reach(reader.cookie, a)).lock).toBeUndefined();
    expect(await coinBalance(reader.id)).toBe(before - 2);
    expect((await reach(reader.cookie, b)).lock).toBeUndefined();
    // The cap (2 a day) is reached: the normal locked page, saying why.
    const capped = await reach(reader.cookie, c);
    expect(capped.lock?.kind).toBe("coins");
    expect(capped.lock?.auto).toBe("cap");
    expect((await reach(reader.cookie, d)).lock?.auto).toBe("cap");
    expect(await coinBalance(reader.id)).toBe(before - 4);
    expect(await unlocksOf(reader.id)).toEqual([
      { number: a, auto: true },
      { number: b, auto: true },
    ]);
    expect(await ledgerBalance(handle.db, reader.id)).toBe(await coinBalance(reader.id));
  });

  it("leaves the chapter locked when the coins do not cover it", async () => {
    const reader = await createReader({ prefix: "auto" });
    const balance = await coinBalance(reader.id);
    const { numbers } = await volumeWith([balance + 1]);
    await saveAutoUnlock(reader.id, { enabled: true, dailyCap: 5, confirmed: true });
    const chapter = await reach(reader.cookie, numbers[0] as number);
    expect(chapter.lock?.auto).toBe("insufficient-coins");
    expect(await coinBalance(reader.id)).toBe(balance);
  });

  it("unlocks a volume all or none, at the price the reader confirmed", async () => {
    const reader = await createReader({ prefix: "volume" });
    const balance = await coinBalance(reader.id);
    const { volume, numbers } = await volumeWith([0, 2, 3, 4]);
    const quote = await volumeQuote(reader.id, volume, new Date());
    expect(quote?.total).toBe(9);
    expect(quote?.chapters.map((chapter) => chapter.number)).toEqual(numbers.slice(1));
    // Too few coins: nothing spent, nothing unlocked.
    expect(await unlockVolume(reader.id, volume, 9, new Date())).toEqual({
      ok: false,
      reason: "insufficient-coins",
    });
    expect(await unlocksOf(reader.id)).toEqual([]);
    await grantCoins(reader.id, 10);
    // A price other than the one shown: nothing.
    expect(await unlockVolume(reader.id, volume, 8, new Date())).toEqual({
      ok: false,
      reason: "price-changed",
    });
    expect(await coinBalance(reader.id)).toBe(balance + 10);
    expect(await unlockVolume(reader.id, volume, 9, new Date())).toEqual({ ok: true, count: 3, coins: 9 });
    expect((await unlocksOf(reader.id)).map((row) => row.number)).toEqual(numbers.slice(1));
    expect(await coinBalance(reader.id)).toBe(balance + 1);
    expect(await unlockVolume(reader.id, volume, 9, new Date())).toEqual({
      ok: false,
      reason: "nothing-to-unlock",
    });
    expect(await ledgerBalance(handle.db, reader.id)).toBe(balance + 1);
  });

  it("answers bad input to the volume's form with a 4xx, never a 500", async () => {
    const reader = await createReader({ prefix: "volume" });
    const { volume } = await volumeWith([1]);
    const context = { requestId: "test", ip: "127.0.0.1" } as never;
    const post = (id: string, total: string) =>
      volumeAction({
        request: new Request(`http://localhost/unlock/volume/${encodeURIComponent(id)}`, {
          method: "POST",
          headers: { cookie: reader.cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ total }),
        }),
        params: { volume: id },
        context,
      } as never).catch((error: unknown) => error);
    const statusOf = (answer: unknown) =>
      (answer as { init?: { status?: number } }).init?.status ?? (answer as { status?: number }).status;
    const ids = ["0", "-1", "x", "1e3", "99999999999", "2147483648", "\u0000", " 1", "1.5"];
    for (const id of ids) expect(statusOf(await post(id, "1"))).toBe(404);
    const totals = ["", "0", "-5", "abc", "1e3", "9".repeat(30), "\u0000", "2.5"];
    for (const total of totals) expect(statusOf(await post(String(volume), total))).toBe(400);
    // A random fuzz of both fields: always an answer of the 4xx family.
    for (let i = 0; i < 40; i++) {
      const random = () =>
        String.fromCodePoint(
          ...Array.from({ length: 1 + (i % 12) }, () => Math.floor(Math.random() * 0x3000)),
        );
      const status = statusOf(await post(random(), random()));
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
    expect(await unlocksOf(reader.id)).toEqual([]);
  });
});

describe.skipIf(!drivers.includes("postgres"))("unlocking in one go under concurrency on postgres", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("50 simultaneous tries of one volume spend its price once and unlock each chapter once", async () => {
    const reader = await createReader({ prefix: "race" });
    await grantCoins(reader.id, 30);
    const before = await coinBalance(reader.id);
    const { volume, numbers } = await volumeWith([1, 2, 3, 4]);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => unlockVolume(reader.id, volume, 10, new Date())),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === "nothing-to-unlock")).toHaveLength(49);
    expect((await unlocksOf(reader.id)).map((row) => row.number)).toEqual(numbers);
    expect(await coinBalance(reader.id)).toBe(before - 10);
    expect(await ledgerBalance(handle.db, reader.id)).toBe(before - 10);
    const entries = await db()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(coinLedger)
      .where(and(eq(coinLedger.userId, reader.id), eq(coinLedger.reason, "unlock")));
    expect(entries[0]?.n).toBe(4);
  });

  it("the daily cap is exact when many chapters are reached at once", async () => {
    const reader = await createReader({ prefix: "race" });
    await grantCoins(reader.id, 50);
    await saveAutoUnlock(reader.id, { enabled: true, dailyCap: 3, confirmed: true });
    const { numbers } = await volumeWith(Array.from({ length: 12 }, () => 1));
    const before = await coinBalance(reader.id);
    // Each chapter reached four times at once: 48 requests.
    await Promise.all(
      numbers.flatMap((number) => Array.from({ length: 4 }, () => reach(reader.cookie, number))),
    );
    expect(await unlocksOf(reader.id)).toHaveLength(3);
    expect(await coinBalance(reader.id)).toBe(before - 3);
    const [row] = await db()
      .select({ balance: users.coinBalance })
      .from(users)
      .where(eq(users.id, reader.id));
    expect(await ledgerBalance(handle.db, reader.id)).toBe(row?.balance);
  });
});
