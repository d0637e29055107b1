import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "#db/client.server";
import { achievements, readingDays, readingProgress, userAchievements, users } from "#db/schema";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { emptyProgress } from "~/features/reader/progress";
import en from "~/i18n/locales/en.json";
import { loader as achievementsLoader } from "~/routes/achievements";
import { passSeconds } from "../support/clock";
import { drivers } from "../support/database";
import { createChapter, createReader, type TestReader } from "../support/factories";
import { earnedKeys, sendProgress, useHeldClockDatabase } from "../support/progress";
import { middayZone } from "../support/zones";

/**
 * POST /reader/progress as the browser sends it (JSON, the session and `tz` cookies). Unless the test names a
 * zone, the browser is where it is midday, so no achievement of the hour comes along whenever the test runs.
 */
function postProgress(reader: TestReader, body: unknown, cookies = "") {
  const zone = cookies.includes("tz=") ? "" : `; tz=${middayZone()}`;
  return sendProgress(body, { cookie: `${reader.cookie}${cookies}${zone}` });
}

const opened = (number: number) => ({ chapter: number, progress: emptyProgress() });

/** Scrolled to the end after five minutes' reading: completed under the reading rule, once opened five minutes before. */
const completed = (number: number) => ({
  chapter: number,
  progress: {
    ...emptyProgress(),
    scrollPosition: 1,
    completionPercentage: 100,
    completed: true,
    readingTime: 300,
  },
});

/** A reader opens the chapters, reads five minutes (the held clock moves on), and scrolls to the ends. */
async function readThrough(reader: TestReader, numbers: number[]) {
  for (const number of numbers) await postProgress(reader, { entries: [opened(number)] });
  passSeconds(300);
  return Promise.all(numbers.map((number) => postProgress(reader, { entries: [completed(number)] })));
}

const firstChapterToast = `${en.achievements.toast.replace("{{icon}}", "📖").replace("{{name}}", "First Chapter")}`;

describe.each(drivers)("achievements on %s", (driver) => {
  useHeldClockDatabase(driver);

  it("loads a catalogue of at least 30 from content/achievements.md, in four languages", async () => {
    const catalogue = await db().select().from(achievements);
    expect(catalogue.length).toBeGreaterThanOrEqual(30);
    for (const achievement of catalogue) {
      expect(Object.keys(achievement.name).sort()).toEqual(["en", "es", "fr", "ja"]);
      expect(Object.keys(achievement.description).sort()).toEqual(["en", "es", "fr", "ja"]);
    }
  });

  it("awards the first chapter once, with its toast, and nothing more on reading it again", async () => {
    const reader = await createReader({ prefix: "first" });
    const [first] = await readThrough(reader, [1]);
    expect(first).toMatchObject({ status: 200, earned: [firstChapterToast] });
    const again = await postProgress(reader, { entries: [completed(1)] });
    expect(again).toMatchObject({ status: 200, earned: [] });
    expect(await earnedKeys(reader.id)).toEqual(["first-chapter"]);
    const page = await achievementsLoader({
      request: new Request("http://localhost/achievements", { headers: { Cookie: reader.cookie } }),
      params: {},
      context: {},
    } as never);
    expect(page.earnedCount).toBe(1);
    expect(page.total).toBeGreaterThanOrEqual(30);
    const firstChapter = page.items.find((item) => item.key === "first-chapter");
    expect(firstChapter?.earnedAt).not.toBeNull();
    // Locked ones say how to earn them; hidden ones tell nothing.
    const night = page.items.find((item) => item.key === "night-reader");
    expect(night).toMatchObject({ name: null, description: null, earnedAt: null, icon: "❔" });
    const unlock = page.items.find((item) => item.key === "first-unlock");
    expect(unlock).toMatchObject({ name: "First Unlock", earnedAt: null });
  });

  it("awards a reader whose history predates the achievements on the next visit", async () => {
    const reader = await createReader({ prefix: "older" });
    const { byNumber } = await getChapterCatalog();
    // Rows as an older version of the site wrote them: completed, no completion time, no reading days.
    await db()
      .insert(readingProgress)
      .values(
        [1, 2].map((number) => ({
          userId: reader.id,
          chapterId: byNumber.get(number)?.id ?? 0,
          completed: true,
          completionPercentage: 100,
          scrollPosition: 1,
          bookmarks: number === 2 ? [4] : [],
        })),
      );
    expect(await earnedKeys(reader.id)).toEqual([]);
    const page = await achievementsLoader({
      request: new Request("http://localhost/achievements", {
        headers: { Cookie: `${reader.cookie}; lang=fr` },
      }),
      params: {},
      context: {},
    } as never);
    expect(await earnedKeys(reader.id)).toEqual(["first-bookmark", "first-chapter"]);
    expect(page.earnedCount).toBe(2);
    expect(page.items.find((item) => item.key === "first-chapter")?.name).toBe("Premier chapitre");
  });

  it("dates reading in the browser's zone and keeps it on the account; an invalid zone is ignored", async () => {
    const reader = await createReader({ prefix: "zone" });
    const reading = { chapter: 2, progress: { ...emptyProgress(), readingTime: 20 } };
    await postProgress(reader, { entries: [opened(2)] }, "; tz=Pacific%2FKiritimati; lang=ja");
    passSeconds(20);
    await postProgress(reader, { entries: [reading] }, "; tz=Pacific%2FKiritimati; lang=ja");
    const [account] = await db()
      .select({ timeZone: users.timeZone })
      .from(users)
      .where(eq(users.id, reader.id));
    expect(account?.timeZone).toBe("Pacific/Kiritimati");
    const [day] = await db().select().from(readingDays).where(eq(readingDays.userId, reader.id));
    const kiritimati = new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
    expect(day).toMatchObject({ day: kiritimati, seconds: 20, languages: ["ja"] });
    await postProgress(
      reader,
      { entries: [{ ...reading, progress: { ...reading.progress, readingTime: 25 } }] },
      "; tz=Mars%2FOlympus",
    );
    const [after] = await db()
      .select({ timeZone: users.timeZone })
      .from(users)
      .where(eq(users.id, reader.id));
    expect(after?.timeZone).toBe("Pacific/Kiritimati");
  });

  it("adds at most 300 seconds a write, whatever the record claims", async () => {
    const reader = await createReader({ prefix: "cap" });
    await postProgress(reader, { entries: [opened(3)] });
    passSeconds(3600);
    await postProgress(reader, {
      entries: [{ chapter: 3, progress: { ...emptyProgress(), readingTime: 9_000_000 } }],
    });
    const rows = await db().select().from(readingDays).where(eq(readingDays.userId, reader.id));
    expect(rows.map((row) => row.seconds)).toEqual([300]);
  });

  it("answers any body and any zone cookie with 200, 400, 403 or 404, never an error (fuzz)", async () => {
    const reader = await createReader({ prefix: "fuzz" });
    const zone = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom(
        "UTC",
        "Europe/Paris",
        "europe/PARIS",
        "Etc/GMT+14",
        "%00",
        "x".repeat(5000),
        "../../etc",
      ),
    );
    const progress = fc.record(
      {
        scrollPosition: fc.oneof(fc.double(), fc.constant(1)),
        paragraph: fc.integer(),
        completionPercentage: fc.integer({ min: -5, max: 105 }),
        readingTime: fc.integer({ min: -10, max: 20_000_000 }),
        completed: fc.boolean(),
        bookmarks: fc.array(fc.integer({ min: -1, max: 200_000 }), { maxLength: 5 }),
        lastReadAt: fc.oneof(
          fc.date().map((date) => (Number.isNaN(date.getTime()) ? "x" : date.toISOString())),
          fc.string(),
        ),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.record({
        entries: fc.array(fc.record({ chapter: fc.integer({ min: -2, max: 12 }), progress }), {
          maxLength: 3,
        }),
      }),
      fc.string(),
      fc.jsonValue(),
    );
    await fc.assert(
      fc.asyncProperty(body, zone, async (sent, tz) => {
        const answer = await postProgress(reader, sent, `; tz=${encodeURIComponent(tz)}`);
        expect([200, 400, 403, 404]).toContain(answer.status);
      }),
      { numRuns: 80 },
    );
    const [account] = await db()
      .select({ timeZone: users.timeZone })
      .from(users)
      .where(eq(users.id, reader.id));
    expect(() => new Intl.DateTimeFormat("en", { timeZone: account?.timeZone })).not.toThrow();
  });
});

describe.skipIf(!drivers.includes("postgres"))("achievements under concurrency on postgres", () => {
  useHeldClockDatabase("postgres");

  it("awards an achievement once when 20 parallel writes cross its threshold", async () => {
    const reader = await createReader({ prefix: "race" });
    const numbers: number[] = [];
    for (let index = 0; index < 24; index++) numbers.push(await createChapter());
    // Four chapters read: the fifth completes "Five Chapters In", whichever write lands first.
    for (const number of numbers) await postProgress(reader, { entries: [opened(number)] });
    passSeconds(300);
    for (const number of numbers.slice(0, 4)) await postProgress(reader, { entries: [completed(number)] });
    expect(await earnedKeys(reader.id)).toEqual(["first-chapter"]);
    const answers = await Promise.all(
      numbers.slice(4).map((number) => postProgress(reader, { entries: [completed(number)] })),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const announced = answers.flatMap((answer) => answer.earned ?? []);
    for (const name of ["Five Chapters In", "Ten Chapters"]) {
      expect(announced.filter((message) => message.includes(name))).toHaveLength(1);
    }
    const rows = await db()
      .select({ key: userAchievements.key })
      .from(userAchievements)
      .where(and(eq(userAchievements.userId, reader.id), eq(userAchievements.key, "chapters-5")));
    expect(rows).toHaveLength(1);
  });
});
