import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { db } from "#db/client.server";
import { readingDays, userAchievements, users } from "#db/schema";
import { readAhead, readAheadNumbers } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { loadDashboard } from "~/features/dashboard/queries.server";
import { busySpans } from "~/features/streaks/caught-up";
import { computeStreak } from "~/features/streaks/streaks";
import { dayNumber } from "~/lib/local-time";
import { loader as accountLoader } from "~/routes/account/index";
import { drivers, openTestDatabase } from "../support/database";
import {
  createChapter,
  createReader,
  grantMembership,
  type ReadingHistory,
  seedReadingHistory,
} from "../support/factories";

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

  it("reads the same number of queries for this history as for an empty one", async () => {
    if (!handle.pglite) return;
    const pglite = handle.pglite;
    const count = async (userId: number) => {
      await loadDashboard(userId, "en", now); // awards what is due; the count is of a steady visit
      const spy = vi.spyOn(pglite, "query");
      await loadDashboard(userId, "en", now);
      const calls = spy.mock.calls.length;
      spy.mockRestore();
      return calls;
    };
    const fresh = await createReader({ prefix: "fresh" });
    const many = await count(reader.id);
    expect(many).toBe(await count(fresh.id));
    expect(many).toBeGreaterThan(5);
    expect(many).toBeLessThanOrEqual(12);
  });
});

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
