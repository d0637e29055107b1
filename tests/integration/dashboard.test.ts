import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { db } from "#db/client.server";
import {
  chapterUnlocks,
  orders,
  payments,
  readingDays,
  readingProgress,
  subscriptions,
  supporters,
  userAchievements,
  users,
} from "#db/schema";
import { createSession } from "~/features/auth/session.server";
import { saveCart } from "~/features/cart/queries.server";
import { readAhead, readAheadNumbers } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { listCoinHistory } from "~/features/coins/history.server";
import { loadAccountPanels } from "~/features/dashboard/account.server";
import { loadDashboard } from "~/features/dashboard/queries.server";
import { loadSupporterPanel } from "~/features/fundraiser/account.server";
import { getMembership } from "~/features/membership/queries.server";
import { listOrders } from "~/features/orders/queries.server";
import { listPurchases } from "~/features/payments/queries.server";
import { busySpans } from "~/features/streaks/caught-up";
import { loadReaderRecords } from "~/features/streaks/records.server";
import { computeStreak } from "~/features/streaks/streaks";
import { getSubscriptionPanel } from "~/features/subscriptions/queries.server";
import { dayNumber } from "~/lib/local-time";
import { loader as accountLoader } from "~/routes/account/index";
import { loader as achievementsLoader } from "~/routes/achievements";
import { loader as checkoutLoader } from "~/routes/checkout";
import { loader as settingsLoader } from "~/routes/settings";
import { drivers, openTestDatabase } from "../support/database";
import {
  createChapter,
  createReader,
  grantMembership,
  type ReadingHistory,
  seedReadingHistory,
} from "../support/factories";
import { countStatements } from "../support/statements";

const shiftDay = (day: string, count: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);

/** The figures /account must show, computed from the factory's plan (never from what the database holds). */
async function expectedFigures(history: ReadingHistory, now: Date) {
  const catalog = await getChapterCatalog();
  const byNumber = (number: number) => catalog.byNumber.get(number)?.id ?? 0;
  const busy = busySpans({
    timeZone: "Asia/Tokyo",
    todayNumber: dayNumber(history.today),
    now,
    catalog,
    unlocks: [],
    progress: history.completed.map((row) => ({
      chapterId: byNumber(row.number),
      completed: true,
      completedAt: null,
      completedLocal: row.local,
    })),
  });
  const days = [...history.days].map(([day, seconds]) => ({ day, seconds }));
  const sum = (from: number, to: number) => {
    let total = 0;
    for (let offset = from; offset <= to; offset++)
      total += history.days.get(shiftDay(history.today, -offset)) ?? 0;
    return total;
  };
  return {
    streak: computeStreak({ days, today: history.today, busy }),
    secondsRead: days.reduce((total, day) => total + day.seconds, 0),
    thisWeek: sum(0, 6),
    lastWeek: sum(7, 13),
  };
}

describe.each(drivers)("the dashboard of a reader with 400 days of history on %s", (driver) => {
  let handle: DatabaseHandle;
  let reader: Awaited<ReturnType<typeof createReader>>;
  let history: ReadingHistory;
  const now = new Date();
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    reader = await createReader({ prefix: "history" });
    history = await seedReadingHistory(reader.id, { now });
  }, 240_000);
  afterAll(() => handle.close());

  it("dates each day's reading in the zone it was read in, across a DST change and a move", async () => {
    const rows = await db()
      .select({ day: readingDays.day, seconds: readingDays.seconds })
      .from(readingDays)
      .where(eq(readingDays.userId, reader.id));
    expect(new Map(rows.map((row) => [row.day, row.seconds]))).toEqual(history.days);
    const [account] = await db()
      .select({ timeZone: users.timeZone })
      .from(users)
      .where(eq(users.id, reader.id));
    expect(account?.timeZone).toBe("Asia/Tokyo");
  });

  it("shows on /account exactly the figures computed from the plan", async () => {
    const expected = await expectedFigures(history, now);
    const data = (await accountLoader({
      request: new Request("http://localhost/account", { headers: { Cookie: reader.cookie } }),
      params: {},
      context: {},
    } as never)) as { dashboard: Awaited<ReturnType<typeof loadDashboard>> };
    const { dashboard } = data;
    expect(expected.streak.current).toBeGreaterThanOrEqual(20);
    expect(expected.streak.freezesSpent).toBeGreaterThan(0);
    expect(dashboard.streak).toEqual({
      current: expected.streak.current,
      longest: expected.streak.longest,
      freezes: expected.streak.freezes,
      next: expected.streak.next,
    });
    expect(dashboard.activity).toMatchObject({
      chaptersCompleted: 2,
      wordsRead: history.words,
      secondsRead: expected.secondsRead,
      thisWeek: expected.thisWeek,
      lastWeek: expected.lastWeek,
    });
    const heat = dashboard.activity.heatmap.filter((cell) => cell.seconds !== null);
    expect(heat.at(-1)?.day).toBe(history.today);
    for (const cell of heat) expect(cell.seconds).toBe(history.days.get(cell.day) ?? 0);
    // Awarded by the loader from the records: the first chapter, the night reader (01:30 in New York),
    // two languages (English, and Japanese on some days in Tokyo), the streak and day milestones.
    const earned = await db()
      .select({ key: userAchievements.key })
      .from(userAchievements)
      .where(eq(userAchievements.userId, reader.id));
    const keys = earned.map((row) => row.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        "first-chapter",
        "night-reader",
        "bilingual",
        "streak-7",
        "days-10",
        "hours-24",
      ]),
    );
    expect(keys).not.toContain("early-bird");
    expect(keys.includes("streak-30")).toBe(expected.streak.longest >= 30);
    expect(dashboard.stats.achievements.earned).toBe(keys.length);
  });

  it("reads /account and /achievements in the same statements for this history as for an empty account", async () => {
    const fresh = await createReader({ prefix: "fresh" });
    const many = await countStatements(handle, () => visitAccount(reader.cookie));
    expect(many).toEqual(await countStatements(handle, () => visitAccount(fresh.cookie)));
    // Prepared: the session, the reader's records, the account's lists (and the Discord account, when Discord
    // sign-in is configured: not here). The chapter catalogue, the achievements and the support tiers are kept
    // until the content revision moves.
    expect(many).toEqual({ prepared: 3, total: 3 });
    // /achievements: the session and the reader's records.
    const achievements = () =>
      achievementsLoader({
        request: new Request("http://localhost/achievements", { headers: { Cookie: reader.cookie } }),
        params: {},
        context: {},
      } as never);
    expect(await countStatements(handle, achievements)).toEqual({ prepared: 2, total: 2 });
  });

  it("reads /account in the same statements with forty more chapters, read, unlocked and bought", async () => {
    const before = await countStatements(handle, () => visitAccount(reader.cookie));
    const numbers: number[] = [];
    for (let index = 0; index < 40; index++)
      numbers.push(await createChapter({ releaseAt: new Date(now.getTime() - (index + 3) * 86_400_000) }));
    const { byNumber } = await getChapterCatalog();
    const ids = numbers.map((number) => byNumber.get(number)?.id ?? 0);
    const at = new Date(now.getTime() - 86_400_000);
    await db()
      .insert(readingProgress)
      .values(ids.map((chapterId) => ({ userId: reader.id, chapterId, completed: true, completedAt: at })));
    await db()
      .insert(chapterUnlocks)
      .values(ids.slice(0, 10).map((chapterId) => ({ userId: reader.id, chapterId, coinsSpent: 5 })));
    await db()
      .insert(payments)
      .values(
        ids.slice(0, 10).map((_, index) => ({
          userId: reader.id,
          kind: "coins" as const,
          provider: "test",
          status: "paid" as const,
          amountCents: 100 + index,
          currency: "USD",
          description: `Coins ${index}`,
        })),
      );
    expect(await countStatements(handle, () => visitAccount(reader.cookie))).toEqual(before);
  });
});

function visitAccount(cookie: string) {
  return accountLoader({
    request: new Request("http://localhost/account", { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  } as never);
}

describe.each(drivers)("the account's lists in one statement on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("are what each list's own query gives: same rows, order, limits and dates", async () => {
    const reader = await createReader({ prefix: "lists" });
    const user = { id: reader.id, username: reader.username };
    const empty = await loadAccountPanels(user);
    expect(empty).toEqual(await panelsOneByOne(user));
    expect(empty.subscription.subscription).toBeNull();
    const base = Date.now() - 10 * 86_400_000;
    const kinds = ["coins", "product", "gift", "subscription"] as const;
    const statuses = ["paid", "refunded", "pending", "failed"] as const;
    // 60 payments (past the purchases' limit of 50), some sharing a creation time (ordered by id then).
    const rows = await db()
      .insert(payments)
      .values(
        Array.from({ length: 60 }, (_, index) => ({
          userId: reader.id,
          kind: kinds[index % 4] ?? "coins",
          provider: "test",
          status: statuses[(index >> 2) % 4] ?? "paid",
          amountCents: 500 + index,
          refundedCents: index % 7 === 0 ? 100 : 0,
          currency: index % 5 === 0 ? "EUR" : "USD",
          description: `Payment ${index}`,
          coins: index % 4 === 0 ? 100 : 0,
          tierKey: index % 4 === 3 ? ("analyst" as const) : null,
          // The first two at the database's own time, to the microsecond.
          createdAt: index < 2 ? undefined : new Date(base + Math.floor(index / 3) * 3_600_000),
          paidAt: index % 2 ? new Date(base + index * 3_600_000 + 123) : null,
        })),
      )
      .returning({ id: payments.id });
    await db()
      .insert(orders)
      .values(
        rows.slice(0, 3).map((row, index) => ({
          userId: reader.id,
          paymentId: row.id,
          status: "paid" as const,
          totalCents: 1000 + index,
          currency: "USD",
          reservedUntil: new Date(),
          createdAt: new Date(base + index * 60_000),
        })),
      );
    await db().insert(supporters).values({
      userId: reader.id,
      display: "username",
      name: "Someone",
      tier: "gift",
      emoji: "🌙",
      message: "Hello",
      supportedAt: new Date(),
    });
    await db()
      .insert(subscriptions)
      .values(
        [1, 2].map((index) => ({
          userId: reader.id,
          provider: "test",
          providerSubscriptionId: `sub_${reader.id}_${index}`,
          tierKey: "analyst" as const,
          status: index === 2 ? "past_due" : "canceled",
          amountCents: 700,
          currentPeriodEnd: new Date(Date.now() + index * 86_400_000),
          graceUntil: index === 2 ? new Date(Date.now() + 4 * 86_400_000) : null,
          endedAt: index === 1 ? new Date(base) : null,
          startedAt: new Date(base + index * 1000),
        })),
      );
    await grantMembership(reader.id, 30);
    const full = await loadAccountPanels(user);
    expect(full).toEqual(await panelsOneByOne(user));
    // The membership the reader's records give is the one getMembership reads (spend, grants, subscriptions).
    const now = new Date();
    const { membership, createdAt, timeZone } = await loadReaderRecords(reader.id, now);
    expect(membership).toEqual(await getMembership(reader.id, now));
    const [account] = await db()
      .select({ createdAt: users.createdAt, timeZone: users.timeZone })
      .from(users)
      .where(eq(users.id, reader.id));
    expect({ createdAt, timeZone }).toEqual(account);
    expect(membership.totalSpentCents).toBeGreaterThan(0);
    expect(full.purchases).toHaveLength(50);
    expect(full.orders).toHaveLength(3);
    expect(full.supporter.gifts).toHaveLength(15);
    expect(full.supporter.entry).toMatchObject({ display: "username", emoji: "🌙" });
    expect(full.subscription.subscription).toMatchObject({ id: `sub_${reader.id}_2`, phase: "grace" });
  });
});

async function panelsOneByOne(user: { id: number; username: string }) {
  const now = new Date();
  const [purchases, orderList, supporter, subscription, coins] = await Promise.all([
    listPurchases(user.id),
    listOrders(user.id),
    loadSupporterPanel(user),
    getSubscriptionPanel(user.id, now),
    listCoinHistory(user.id),
  ]);
  return { purchases, orders: orderList, coins, supporter, subscription };
}

describe("chapters ahead and the tier's achievements", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("pglite");
  });
  afterAll(() => handle.close());

  it("lists the unreleased chapters an observer reads now, none for a free reader", async () => {
    const member = await createReader({ prefix: "ahead" });
    const free = await createReader({ prefix: "free" });
    await grantMembership(member.id, 30);
    const upcoming = await createChapter({ releaseAt: new Date(Date.now() + 30 * 86_400_000) });
    const { byNumber, published } = await getChapterCatalog();
    const expected = readAheadNumbers(published, new Date(), readAhead.observer);
    expect(byNumber.get(upcoming)).toBeDefined();
    const dashboard = await loadDashboard(member.id, "en");
    expect(dashboard.ahead.map((chapter) => chapter.number).sort((a, b) => a - b)).toEqual(
      [...expected].sort((a, b) => a - b),
    );
    expect(dashboard.ahead.map((chapter) => chapter.number)).toContain(upcoming);
    expect((await loadDashboard(free.id, "en")).ahead).toEqual([]);
    const earned = await db()
      .select({ key: userAchievements.key })
      .from(userAchievements)
      .where(eq(userAchievements.userId, member.id));
    expect(earned.map((row) => row.key)).toEqual(["tier-observer"]);
  });
});

/**
 * /settings and /checkout (ADR 31): a reader's own pages, in as many statements with one device and
 * one line in the cart as with six devices and four lines (no statement per row).
 */
describe.each(drivers)("/settings and /checkout statements on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  const visit = (loader: typeof settingsLoader | typeof checkoutLoader, path: string, cookie: string) => () =>
    loader({
      request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    } as never);

  it("reads them in the same statements with six devices and four cart lines as with one of each", async () => {
    const reader = await createReader({ prefix: "rows" });
    await saveCart(reader.id, [{ productId: 1, variantId: null, quantity: 1 }]);
    const settings = visit(settingsLoader, "/settings", reader.cookie);
    const checkout = visit(checkoutLoader, "/checkout", reader.cookie);
    const one = {
      settings: await countStatements(handle, settings),
      checkout: await countStatements(handle, checkout),
    };
    for (let device = 0; device < 5; device++) await createSession(reader.id, { remember: false });
    await saveCart(
      reader.id,
      [1, 2, 4, 5].map((productId) => ({ productId, variantId: null, quantity: 1 })),
    );
    expect({
      settings: await countStatements(handle, settings),
      checkout: await countStatements(handle, checkout),
    }).toEqual(one);
  });
});

describe.each(drivers)("the dashboard's recent purchases on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("name what was bought by its kind, tier and coins (named in the reader's language), not the stored English", async () => {
    const reader = await createReader({ prefix: "recentbuy" });
    const paid = { userId: reader.id, provider: "test", status: "paid" as const, currency: "USD" };
    await db()
      .insert(payments)
      .values([
        { ...paid, kind: "gift", amountCents: 500, description: "One-off gift" },
        {
          ...paid,
          kind: "subscription",
          amountCents: 700,
          description: "Analyst (monthly)",
          tierKey: "analyst",
        },
        { ...paid, kind: "coins", amountCents: 499, description: "500 coins", coins: 500 },
      ]);
    const { recent } = await loadDashboard(reader.id, "fr");
    const purchases = recent.filter((item) => item.kind === "purchase");
    expect(purchases.map(({ label, purchase }) => ({ label, ...purchase }))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: "", kind: "gift", tierKey: null }),
        expect.objectContaining({ label: "", kind: "subscription", tierKey: "analyst" }),
        expect.objectContaining({ label: "", kind: "coins", coins: 500 }),
      ]),
    );
    expect(purchases).toHaveLength(3);
  });
});
