import { eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import {
  chapters,
  chapterUnlocks,
  membershipGrants,
  readingProgress,
  supporters,
  users,
  volumes,
} from "#db/schema";
import { createAccount } from "~/features/auth/commands.server";
import { createSession } from "~/features/auth/session.server";
import { book } from "~/features/coins/ledger.server";
import { emptyProgress } from "~/features/reader/progress";
import { readerTimeZone, saveProgress } from "~/features/reader/queries.server";
import { unique } from "./unique";

/**
 * Test data made with the app's own commands, so that a test states the figures it asserts instead of
 * reading them off the demo content (which an author may change at any time). They write to the
 * process-wide database that `openTestDatabase` set.
 */

export type TestReader = { id: number; username: string; email: string; password: string; cookie: string };

/** A new account with its welcome coins, signed in: `cookie` is the session's `name=value` pair. */
export async function createReader({
  prefix = "reader",
  password = "secret1",
  remember = false,
}: {
  prefix?: string;
  password?: string;
  remember?: boolean;
} = {}): Promise<TestReader> {
  const username = unique(prefix);
  const email = `${username}@example.com`;
  const id = await createAccount({ username, email, password });
  const cookie = (await createSession(id, { remember })).split(";")[0] ?? "";
  return { id, username, email, password, cookie };
}

/** Books `coins` to the reader through the ledger, as an operator's adjustment. */
/** A new reader made an author, as the admin's commands name who acted: `{ via: "admin", userId }`. */
export async function createAuthor(prefix = "author") {
  const reader = await createReader({ prefix });
  await db().update(users).set({ role: "author" }).where(eq(users.id, reader.id));
  return { via: "admin", userId: reader.id } as const;
}

export async function grantCoins(userId: number, coins: number): Promise<void> {
  await db().transaction((tx) =>
    book(tx, { userId, delta: coins, reason: "admin", idempotencyKey: unique(`test-grant:${userId}:`) }),
  );
}

export async function coinBalance(userId: number): Promise<number> {
  const [row] = await db().select({ balance: users.coinBalance }).from(users).where(eq(users.id, userId));
  return row?.balance ?? 0;
}

/** A membership of `days` granted now (as a purchase with membership days grants one). */
export async function grantMembership(userId: number, days: number): Promise<void> {
  await db().insert(membershipGrants).values({ userId, days, grantedAt: new Date() });
}

/** A supporter of the fundraiser, given now; returns the supporter's name. */
export async function addSupporter(amountCents: number): Promise<string> {
  const name = unique("Supporter ");
  await db().insert(supporters).values({ name, tier: "Supporter", amountCents, supportedAt: new Date() });
  return name;
}

/**
 * A published chapter after the last one, in the last volume: released (a second ago) unless `releaseAt`
 * says otherwise. Returns its number.
 */
export async function createChapter({
  title = unique("A Chapter Made For A Test "),
  coinsRequired = 0,
  releaseAt = new Date(Date.now() - 1000),
  body = "The first paragraph.\n\nThe second paragraph.",
}: {
  title?: string;
  coinsRequired?: number;
  releaseAt?: Date;
  body?: string;
} = {}): Promise<number> {
  const [last] = await db()
    .select({ number: sql<number>`coalesce(max(${chapters.number}), 0)`.mapWith(Number) })
    .from(chapters);
  const [volume] = await db()
    .select({ id: volumes.id })
    .from(volumes)
    .orderBy(sql`${volumes.number} desc`)
    .limit(1);
  if (!volume) throw new Error("createChapter needs a volume (open the database with its content)");
  const number = (last?.number ?? 0) + 1;
  await db()
    .insert(chapters)
    .values({
      number,
      volumeId: volume.id,
      title,
      bodyMd: body,
      wordCount: body.split(/\s+/).filter(Boolean).length,
      releaseAt,
      coinsRequired,
    });
  return number;
}

/** A deterministic random sequence (mulberry32), so a seeded history is the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export type SerialReading = {
  /** The chapters made, by number (the first is the serial's first when the database had none). */
  chapters: { id: number; number: number; coinsRequired: number }[];
  progress: {
    userId: number;
    chapterId: number;
    completionPercentage: number;
    readingTimeSeconds: number;
    /** As the reading rule decides it: at the end (98 %) with 30 s read (these chapters are a few words long). */
    completed: boolean;
  }[];
  unlocks: { userId: number; chapterId: number; coinsSpent: number }[];
};

/** Stopping places on either side of each boundary (a tenth's, the finishing line's), drawn more often. */
const EDGES = [0, 9, 10, 19, 89, 90, 97, 98, 99, 100];

/**
 * `readers` accounts reading a serial of `chapterCount` new chapters (every third one paid), written as rows
 * (the progress route's rows, without its reading days): each reader starts at the first chapter or, one in
 * five, further on, and reads on for a random number of chapters, stopping anywhere in each (more than half
 * past the finishing line, often right on a boundary) with a random reading time; a paid chapter read is
 * unlocked one time in two. All from `seed`, so a failure repeats. Returns the rows, for a test to compute its
 * expected figures from.
 */
export async function seedSerialReading({
  readers,
  chapterCount,
  seed,
}: {
  readers: number;
  chapterCount: number;
  seed: number;
}): Promise<SerialReading> {
  const random = seededRandom(seed);
  const below = (limit: number) => Math.floor(random() * limit);
  const [volume] = await db().select({ id: volumes.id }).from(volumes).limit(1);
  if (!volume) await db().insert(volumes).values({ number: 1, title: "A Volume Made For A Test" });
  const made: SerialReading["chapters"] = [];
  for (let index = 0; index < chapterCount; index++) {
    const coinsRequired = index % 3 === 2 ? 3 + below(5) : 0;
    const number = await createChapter({ coinsRequired });
    const [row] = await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number));
    made.push({ id: row?.id ?? 0, number, coinsRequired });
  }
  const accounts = await db()
    .insert(users)
    .values(
      Array.from({ length: readers }, () => {
        const username = unique("serial");
        return { username, email: `${username}@example.com` };
      }),
    )
    .returning({ id: users.id });
  const progress: SerialReading["progress"] = [];
  const unlocks: SerialReading["unlocks"] = [];
  for (const { id: userId } of accounts) {
    const start = random() < 0.8 ? 0 : below(chapterCount);
    const end = Math.min(chapterCount, start + 1 + below(chapterCount));
    for (const chapter of made.slice(start, end)) {
      const roll = random();
      const completionPercentage =
        roll < 0.15 ? (EDGES[below(EDGES.length)] ?? 0) : roll < 0.6 ? 98 + below(3) : below(98);
      // One place in ten read for under a minute: about half of those too short to count as read.
      const readingTimeSeconds = random() < 0.1 ? below(60) : below(3600);
      const completed = completionPercentage >= 98 && readingTimeSeconds >= 30;
      progress.push({ userId, chapterId: chapter.id, completionPercentage, readingTimeSeconds, completed });
      if (chapter.coinsRequired && random() < 0.5)
        unlocks.push({ userId, chapterId: chapter.id, coinsSpent: chapter.coinsRequired });
    }
  }
  if (progress.length)
    await db()
      .insert(readingProgress)
      .values(
        progress.map((row) => ({
          ...row,
          scrollPosition: row.completionPercentage / 100,
        })),
      );
  if (unlocks.length) await db().insert(chapterUnlocks).values(unlocks);
  return { chapters: made, progress, unlocks };
}

/** The UTC offset of New York in hours, by the US rule (DST from the second Sunday of March to the first of November, 02:00). */
export function newYorkOffset(day: string): number {
  const year = Number(day.slice(0, 4));
  const sunday = (month: number, nth: number) => {
    const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
    return 1 + ((7 - first) % 7) + 7 * (nth - 1);
  };
  const date = new Date(`${day}T00:00:00Z`);
  const start = Date.UTC(year, 2, sunday(2, 2));
  const end = Date.UTC(year, 10, sunday(10, 1));
  return date.getTime() >= start && date.getTime() < end ? -4 : -5;
}

const shiftDay = (day: string, count: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);

/** The instant of a local wall-clock time at a fixed UTC offset (hours). */
const instantAt = (day: string, time: string, offset: number) =>
  new Date(Date.parse(`${day}T${time}:00Z`) - offset * 3_600_000);

export type ReadingHistory = {
  /** Seconds read per local day, as planned (not read back from the database). */
  days: Map<string, number>;
  /** The two chapters completed, by number, with their local day of completion. */
  completed: { number: number; day: string; local: string }[];
  /** The chapter read throughout. */
  readingChapter: number;
  /** Today in the reader's last time zone (Asia/Tokyo); the history ends yesterday. */
  today: string;
  words: number;
};

/**
 * A reader's reading over `length` simulated days, written through the app's own progress command: the
 * first half in New York (crossing a daylight-saving change: a 200-day span always holds one), the rest in
 * Tokyo, each day's reading written from 23:30 local (New York: the next day in UTC) or 20:00 (Tokyo), in
 * writes of at most 300 seconds five minutes apart (the reading rule counts no more than the server's clock
 * saw pass). About one day in ten unread, some under the two minutes of a reading day,
 * a three-day gap, and an unbroken run at the end. Two chapters made for it are completed: one at 01:30
 * local (a night reader), one in the evening. Local days are computed here from the zones' offsets, not
 * with Intl, so the test compares the app's dating with an independent one.
 */
export async function seedReadingHistory(
  userId: number,
  { length = 400, seed = 18, now = new Date() }: { length?: number; seed?: number; now?: Date } = {},
): Promise<ReadingHistory> {
  const random = seededRandom(seed);
  // The calendar day in Tokyo: now + 9 h.
  const tokyoToday = new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
  const first = shiftDay(tokyoToday, -length);
  const released = new Date(Date.parse(`${first}T00:00:00Z`) - 2 * 86_400_000);
  const body = "Words to read, made for a test of reading history.";
  const wordsPerChapter = body.split(/\s+/).length;
  const [nightChapter, eveningChapter, readingChapter] = [
    await createChapter({ releaseAt: released, body }),
    await createChapter({ releaseAt: released, body }),
    await createChapter({ releaseAt: released, body }),
  ] as [number, number, number];
  const days = new Map<string, number>();
  const completed: ReadingHistory["completed"] = [];
  let cumulative = 0;
  // Opened the day before the first: the server counts reading from a chapter's first write on.
  await saveProgress(
    userId,
    readingChapter,
    emptyProgress(),
    new Date(Date.parse(`${first}T00:00:00Z`) - 86_400_000),
  );
  const half = Math.floor(length / 2);
  for (let index = 0; index < length; index++) {
    const day = shiftDay(first, index);
    const inNewYork = index < half;
    const context = inNewYork
      ? { timeZone: "America/New_York", language: "en" as const }
      : { timeZone: "Asia/Tokyo", language: index % 50 === 0 ? ("ja" as const) : ("en" as const) };
    const offset = inNewYork ? newYorkOffset(day) : 9;
    // As the progress route does with the browser's zone: the account follows the reader's move.
    if (index === 0 || index === half)
      await readerTimeZone(
        { id: userId, timeZone: index === 0 ? "UTC" : "America/New_York", timeZoneFixed: false },
        context.timeZone,
      );
    const roll = random();
    const extra = random();
    let seconds = roll < 0.1 ? 0 : roll < 0.16 ? 60 : 130 + Math.floor(extra * 1400);
    if (index >= length - 20) seconds = Math.max(seconds, 150);
    if (index >= length - 100 && index < length - 97) seconds = 0;
    const completion =
      index === Math.floor(length * 0.3)
        ? { number: nightChapter, time: "01:30" }
        : index === Math.floor(length * 0.6)
          ? { number: eveningChapter, time: "19:00" }
          : undefined;
    if (completion) {
      const at = instantAt(day, completion.time, offset);
      // Opened 30 s before: the reading its few words need to count as completed (those 30 s are read that day).
      await saveProgress(
        userId,
        completion.number,
        emptyProgress(),
        new Date(at.getTime() - 30_000),
        context,
      );
      await saveProgress(
        userId,
        completion.number,
        {
          ...emptyProgress(),
          scrollPosition: 1,
          completionPercentage: 100,
          completed: true,
          readingTime: 30,
          lastReadAt: at.toISOString(),
        },
        at,
        context,
      );
      completed.push({ number: completion.number, day, local: `${day} ${completion.time}:00` });
    }
    let left = seconds;
    let minute = 0;
    while (left > 0) {
      const add = Math.min(300, left);
      cumulative += add;
      left -= add;
      const at = instantAt(
        day,
        inNewYork
          ? `23:${String(30 + 5 * minute).padStart(2, "0")}`
          : `20:${String(5 * minute).padStart(2, "0")}`,
        offset,
      );
      minute++;
      await saveProgress(
        userId,
        readingChapter,
        {
          ...emptyProgress(),
          scrollPosition: 0.5,
          completionPercentage: 50,
          readingTime: cumulative,
          lastReadAt: at.toISOString(),
        },
        at,
        context,
      );
    }
    const read = seconds + (completion ? 30 : 0);
    if (read > 0) days.set(day, read);
  }
  return { days, completed, readingChapter, today: tokyoToday, words: 2 * wordsPerChapter };
}

/** A shipping address the checkout form accepts (the test reader's). */
export const shippingAddress = {
  shipName: "Ilse Marrow",
  shipLine1: "12 Lantern Row",
  shipCity: "New Lumen",
  shipPostalCode: "NL-1207",
  shipCountry: "GB",
} as const;
