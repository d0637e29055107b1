import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { chapters, chapterUnlocks, payments, users } from "#db/schema";
import { createAccount } from "~/features/auth/commands.server";
import type { SessionUser } from "~/features/auth/session.server";
import { ledgerBalance } from "~/features/coins/ledger.server";
import { coveringPack } from "~/features/coins/queries.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { returnPath, startCheckout } from "~/features/payments/checkout.server";
import { processEvent } from "~/features/payments/fulfil.server";
import { fromChapterSchema } from "~/features/payments/schemas";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import { buyAndUnlock } from "~/features/reader/purchase.server";
import { defaultSettings } from "~/features/reading-settings/settings";
import { drivers, openTestDatabase } from "../support/database";
import { coinBalance } from "../support/factories";
import { unique } from "../support/unique";

describe.each(drivers)("buying coins from a chapter on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  /** A new reader as the session has them, with `spend` welcome coins already spent on chapters 5, 6, 7. */
  async function reader(spend = 0): Promise<SessionUser> {
    const name = `buyer${unique()}`;
    const email = `${name}@example.com`;
    const id = await createAccount({ username: name, email, password: "secret1" });
    for (const chapter of [5, 6, 7].slice(0, spend)) expect((await unlockChapter(id, chapter)).ok).toBe(true);
    const [row] = await handle.db.select({ balance: users.coinBalance }).from(users).where(eq(users.id, id));
    return {
      id,
      sessionId: 0,
      username: name,
      email,
      role: "reader",
      coinBalance: row?.balance ?? 0,
      timeZone: "UTC",
      timeZoneFixed: false,
      createdAt: new Date(),
      hasPassword: true,
      emailConfirmed: true,
      readingSettings: defaultSettings,
    };
  }
  const balanceOf = coinBalance;
  const unlocked = async (userId: number, number: number) => {
    const rows = await handle.db
      .select({ id: chapterUnlocks.id })
      .from(chapterUnlocks)
      .innerJoin(chapters, eq(chapters.id, chapterUnlocks.chapterId))
      .where(and(eq(chapterUnlocks.userId, userId), eq(chapters.number, number)));
    return rows.length;
  };
  const sessionOf = (url: string) => url.replace("/pay/test/", "");
  const approve = (url: string, eventId = `evt_${unique()}`) =>
    processEvent("test", {
      id: eventId,
      type: "checkout.approved",
      effect: { kind: "paid", sessionId: sessionOf(url), amountCents: 99, currency: "USD" },
    });

  it("returns the payer to the chapter the purchase started from, with the coins and no unlock", async () => {
    const user = await reader(3);
    const { paymentId, url } = await startCheckout(
      user,
      { kind: "coins", packKey: "coins-5", from: { chapter: 4, unlock: false } },
      { ip: unique() },
    );
    expect(returnPath({ id: paymentId, kind: "coins", chapterNumber: 4 })).toBe(
      `/chapter/4?payment=${paymentId}`,
    );
    const answered = await answerTestCheckout(sessionOf(url), "approve");
    expect(answered?.redirectTo).toBe(`/chapter/4?payment=${paymentId}`);
    expect(await balanceOf(user.id)).toBe(5);
    expect(await unlocked(user.id, 4)).toBe(0);
  });

  it("buy and unlock: nothing before the confirmation, a decline unlocks nothing, an approval unlocks once", async () => {
    const user = await reader(3);
    const started = await buyAndUnlock(user, 4, "coins-5", unique());
    if (!("url" in started)) throw new Error(`refused: ${started.error}`);
    expect(await unlocked(user.id, 4)).toBe(0);
    await answerTestCheckout(sessionOf(started.url), "decline");
    expect(await unlocked(user.id, 4)).toBe(0);
    expect(await balanceOf(user.id)).toBe(0);

    const again = await buyAndUnlock(user, 4, "coins-5", unique());
    if (!("url" in again)) throw new Error(`refused: ${again.error}`);
    const answered = await answerTestCheckout(sessionOf(again.url), "approve");
    expect(answered?.redirectTo).toMatch(/^\/chapter\/4\?payment=\d+$/);
    expect(await unlocked(user.id, 4)).toBe(1);
    expect(await balanceOf(user.id)).toBe(4);
    // Another confirmation of the same payment (a new event id) and a redelivered one change nothing.
    expect((await approve(again.url)).outcome).toBe("no-change");
    expect((await answerTestCheckout(sessionOf(again.url), "approve"))?.redirectTo).toBeDefined();
    expect(await balanceOf(user.id)).toBe(4);
    expect(await ledgerBalance(handle.db, user.id)).toBe(4);
  });

  it("books the coins but unlocks nothing when the chapter is no longer for sale at confirmation", async () => {
    const user = await reader(3);
    const started = await buyAndUnlock(user, 8, "coins-5", unique());
    if (!("url" in started)) throw new Error(`refused: ${started.error}`);
    await handle.db.update(chapters).set({ coinsRequired: 0 }).where(eq(chapters.number, 8));
    try {
      expect((await approve(started.url)).outcome).toBe("fulfilled");
      expect(await unlocked(user.id, 8)).toBe(0);
      expect(await balanceOf(user.id)).toBe(5);
    } finally {
      await handle.db.update(chapters).set({ coinsRequired: 1 }).where(eq(chapters.number, 8));
    }
  });

  it("keeps the coins when the chapter became dearer than the pack: the purchase still counts", async () => {
    const user = await reader(3);
    const started = await buyAndUnlock(user, 9, "coins-5", unique());
    if (!("url" in started)) throw new Error(`refused: ${started.error}`);
    await handle.db.update(chapters).set({ coinsRequired: 50 }).where(eq(chapters.number, 9));
    try {
      expect((await approve(started.url)).outcome).toBe("fulfilled");
      expect(await unlocked(user.id, 9)).toBe(0);
      expect(await balanceOf(user.id)).toBe(5);
      const [payment] = await handle.db.select().from(payments).where(eq(payments.userId, user.id));
      expect(payment?.status).toBe("paid");
    } finally {
      await handle.db.update(chapters).set({ coinsRequired: 1 }).where(eq(chapters.number, 9));
    }
  });

  it("unlocks once and charges once when the confirmation arrives 10 times at once", async () => {
    const user = await reader(3);
    const started = await buyAndUnlock(user, 4, "coins-5", unique());
    if (!("url" in started)) throw new Error(`refused: ${started.error}`);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => approve(started.url)));
    expect(outcomes.filter((o) => o.outcome === "fulfilled")).toHaveLength(1);
    expect(await unlocked(user.id, 4)).toBe(1);
    expect(await balanceOf(user.id)).toBe(4);
    expect(await ledgerBalance(handle.db, user.id)).toBe(4);
  });

  it.each([
    ["a pack key that is not a key", 4, "../coins-5", "payments.errors.unknownItem"],
    ["an empty pack key", 4, "", "payments.errors.unknownItem"],
    ["a pack key too long", 4, "c".repeat(41), "payments.errors.unknownItem"],
    ["no pack key", 4, null, "payments.errors.unknownItem"],
    ["an unknown pack", 4, "coins-1000", "payments.errors.unknownItem"],
    ["a free chapter", 1, "coins-5", "reader.unlock.failed"],
    ["an unreleased chapter", 10, "coins-5", "reader.unlock.failed"],
    ["a chapter that does not exist", 999_999, "coins-5", "reader.unlock.failed"],
  ])("refuses buy and unlock with %s, and records no payment", async (_, chapter, packKey, error) => {
    const user = await reader(3);
    expect(await buyAndUnlock(user, chapter, packKey, unique())).toMatchObject({ error });
    expect(await handle.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(0);
  });

  it("refuses buy and unlock for a chapter the reader already unlocked, or can already afford", async () => {
    const user = await reader(1);
    expect(await buyAndUnlock(user, 5, "coins-5", unique())).toMatchObject({ error: "reader.unlock.failed" });
    // Two coins left for a one-coin chapter: no pack is needed, so none is offered or sold this way.
    expect(await buyAndUnlock(user, 4, "coins-5", unique())).toMatchObject({
      error: "payments.errors.unknownItem",
    });
  });
});

describe("the pack that covers a chapter, and the chapter a purchase came from", () => {
  const packs = [{ coins: 30 }, { coins: 5 }, { coins: 12 }];
  it.each([
    [0, 1, 5],
    [0, 5, 5],
    [2, 8, 12],
    [0, 30, 30],
    [0, 31, undefined],
    [3, 1, undefined],
  ])("balance %i, price %i: pack of %s", (balance, price, coins) => {
    expect(coveringPack(packs, balance, price)?.coins).toBe(coins);
  });
  it.each([
    ["4", 4],
    ["999999", 999_999],
    ["0", undefined],
    ["-4", undefined],
    ["1000000", undefined],
    ["4.5", undefined],
    ["abc", undefined],
    ["/chapter/4", undefined],
    ["4\u0000", undefined],
  ])("?chapter=%s reads as %s", (raw, expected) => {
    const parsed = fromChapterSchema.safeParse(raw);
    expect(parsed.success ? parsed.data : undefined).toBe(expected);
  });
});
