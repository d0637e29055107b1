import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChapterProgress } from "~/features/reader/progress";
import { Client, registerReader } from "../support/http";
import { createPostgresDatabase } from "../support/postgres";
import { type RunningServer, startInstances } from "../support/server";
import { middayZone } from "../support/zones";

/**
 * Progress writes racing on two instances of one PostgreSQL database (ADR 67): each instance coalesces the
 * writes it receives into batches, and the two instances' batches lock the same rows. Readers send many
 * writes of the same chapters at once, half to each instance; what they leave (progress, reading days, the
 * newest reading day, the streak, the achievements and their toasts, the admin's chapter analytics) is
 * exactly what the same writes sent one at a time leave, and what the reading rule computes.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

// Midday in the readers' zone: the test's writes all fall on one local day, whenever it runs.
const ZONE = middayZone();
const localDay = (time: number) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(time);

type Entry = { chapter: number; progress: ChapterProgress };
type Reader = { client: Client; id: number; name: string };

const START = Date.now() - 3_600_000;

/**
 * `count` writes of one chapter as a page sends them while reading on: the reading time claimed grows to
 * `seconds`, the place and the time of the record with it; the last `ends` of them are at the chapter's end
 * (a completion once the counted reading is enough); each adds a bookmark of its own.
 */
function readingOn(chapter: number, count: number, seconds: number, percent: number, ends = 0): Entry[] {
  return Array.from({ length: count }, (_, k) => {
    const end = k >= count - ends;
    const share = (k + 1) / count;
    return {
      chapter,
      progress: {
        scrollPosition: end ? 1 : Math.round(share * percent) / 100,
        paragraph: k + 1,
        completionPercentage: end ? 100 : Math.round(share * percent),
        readingTime: Math.round(share * seconds),
        completed: end,
        bookmarks: [chapter * 1000 + k],
        lastReadAt: new Date(START + chapter * 100_000 + k * 1000).toISOString(),
      },
    };
  });
}

/** A reader's writes of one moment, interleaved by chapter, some two chapters in one request. */
function requests(entries: Entry[][]): Entry[][] {
  const queue = entries.flatMap((list) => list.map((entry, k) => ({ entry, k })));
  queue.sort((a, b) => a.k - b.k);
  const grouped: Entry[][] = [];
  for (const [index, { entry }] of queue.entries()) {
    const last = grouped.at(-1);
    if (index % 5 === 1 && last && last[0]?.chapter !== entry.chapter) last.push(entry);
    else grouped.push([entry]);
  }
  return grouped;
}

type Answer = { status: number; earned: string[] };

async function send(server: RunningServer, reader: Reader, entries: Entry[]): Promise<Answer> {
  const response = await fetch(`${server.url}/reader/progress`, {
    method: "POST",
    body: JSON.stringify({ entries }),
    headers: {
      cookie: `${reader.client.cookieHeader}; tz=${ZONE}; lang=en`,
      origin: server.url,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
  });
  const body = (await response.json()) as { earned?: string[] };
  return { status: response.status, earned: body.earned ?? [] };
}

describe.runIf(inject("postgres"))("progress writes racing on two instances of one PostgreSQL", () => {
  let database: { url: string; drop: () => Promise<void> };
  let sql: pg.Client;
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    database = await createPostgresDatabase();
    await startInstances(database.url, { count: 2, prefix: "cc-race-", servers, dirs });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    for (const server of servers) expect(await server.stop()).toBe(0);
    await database?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function newReader(server: RunningServer, prefix: string): Promise<Reader> {
    const client = new Client(server.url);
    const name = await registerReader(client, server.env.DATA_DIR ?? "", prefix);
    const { rows } = await sql.query<{ id: number }>("select id from users where username = $1", [name]);
    return { client, id: rows[0]?.id as number, name };
  }

  /** Everything a reader's writes left, without what depends on when the server received them. */
  async function leftBy(reader: Reader) {
    const progress = await sql.query(
      `select c.number, p.scroll_position, p.paragraph, p.completion_percentage, p.reading_time_seconds,
         p.completed, p.bookmarks, p.last_read_at, p.completed_at is not null as completed_once,
         p.completed_local::date::text as completed_on
       from reading_progress p join chapters c on c.id = p.chapter_id where p.user_id = $1 order by c.number`,
      [reader.id],
    );
    const days = await sql.query(
      "select day::text, seconds, languages from reading_days where user_id = $1 order by day",
      [reader.id],
    );
    const user = await sql.query("select last_read_on::text, time_zone from users where id = $1", [
      reader.id,
    ]);
    const achievements = await sql.query(
      "select key from user_achievements where user_id = $1 order by key",
      [reader.id],
    );
    const account = await (await reader.client.get("/account")).text();
    return {
      progress: progress.rows,
      days: days.rows,
      user: user.rows[0],
      achievements: achievements.rows.map((row) => row.key as string),
      streak: /data-testid="streak-current">([^<]+)</.exec(account)?.[1],
    };
  }

  /** The admin's figures of a chapter (its page), and its drop-off by tenth. */
  async function analytics(author: Client, chapterId: number) {
    const html = await (await author.get(`/admin/analytics/${chapterId}`)).text();
    const figures = Object.fromEntries(
      [...html.matchAll(/data-figure="(\w+)">([^<]*)</g)].map(([, key, value]) => [key, value]),
    );
    const tenths = [...html.matchAll(/<th scope="row"[^>]*>([^<]+)<\/th><td[^>]*>(\d+)</g)].map(
      ([, tenth, count]) => [tenth, Number(count)] as const,
    );
    expect(figures.started).toBeDefined();
    expect(tenths).toHaveLength(10);
    return { figures, tenths };
  }

  it("leave exactly what the same writes sent one at a time leave: progress, days, streak, toasts, analytics", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const chapters = await sql.query<{ id: number; number: number; word_count: number }>(
      "select id, number, word_count from chapters where number in (1, 2) order by number",
    );
    const [first, second] = chapters.rows as [(typeof chapters.rows)[0], (typeof chapters.rows)[0]];
    // The counted reading chapter 1 needs to count as completed (reading-rule.ts: 10 words a second).
    const needed = Math.max(30, Math.ceil(first.word_count / 10));
    // The counts below stay within one 300 s window of the reading rule (MAX_SECONDS_PER_WRITE).
    expect(needed + 20).toBeLessThanOrEqual(300);

    // What each reader reads: the main reader completes chapter 1 (its end reached by several writes, before
    // and after its reading is enough) and reads chapter 2 for 100 s; the others complete it, reach its end
    // too fast, or only open a chapter.
    const plans: Entry[][][] = [
      [readingOn(1, 40, needed + 20, 95, 10), readingOn(2, 30, 100, 40)],
      [readingOn(1, 12, needed + 5, 90, 4)],
      [readingOn(1, 12, 60, 100, 12)],
      [readingOn(2, 8, 20, 30)],
    ];
    const author = new Client(a.url);
    const authorName = await registerReader(author, a.env.DATA_DIR ?? "", "raceauthor");
    await sql.query("update users set role = 'author' where username = $1", [authorName]);
    const racing: Reader[] = [];
    const alone: Reader[] = [];
    for (const [index] of plans.entries()) {
      racing.push(await newReader(index % 2 ? b : a, "racing"));
      alone.push(await newReader(index % 2 ? a : b, "alone"));
    }

    // Each reader opens their chapters: the first write of a chapter only starts the count (ADR 58).
    for (const [index, plan] of plans.entries())
      for (const reader of [racing[index], alone[index]] as Reader[])
        for (const list of plan) {
          const open = {
            ...(list[0] as Entry),
            progress: { ...(list[0] as Entry).progress, readingTime: 0 },
          };
          open.progress.bookmarks = [];
          open.progress.completed = false;
          open.progress.completionPercentage = 0;
          open.progress.scrollPosition = 0;
          expect((await send(a, reader, [open])).status).toBe(200);
        }
    // An hour passes on the server's clock since each count started: the reading rule counts up to 300 s of
    // the reading claimed next (a built server reads the real clock, so the marks are moved back instead).
    // The main readers read on each of the six days before too: today's reading day makes a streak of 7.
    await sql.query("update reading_progress set counted_at = counted_at - interval '1 hour'");
    const today = localDay(Date.now());
    for (const reader of [racing[0], alone[0]] as Reader[])
      await sql.query(
        `insert into reading_days (user_id, day, seconds, languages)
         select $1, $2::date - n, 600, array['en'] from generate_series(1, 6) n`,
        [reader.id, today],
      );
    const earnedBefore = await sql.query("select count(*)::int as n from user_achievements");

    // One at a time, alternately on each instance.
    const aloneAnswers: Answer[] = [];
    for (const [index, plan] of plans.entries())
      for (const [k, entries] of requests(plan).entries())
        aloneAnswers.push(await send(k % 2 ? b : a, alone[index] as Reader, entries));
    const afterAlone = [await analytics(author, first.id), await analytics(author, second.id)];

    // All at once, half on each instance.
    const racingByReader = await Promise.all(
      plans.map((plan, index) =>
        Promise.all(
          requests(plan).map((entries, k) => send(k % 2 ? a : b, racing[index] as Reader, entries)),
        ),
      ),
    );
    const racingAnswers = racingByReader.flat();
    const afterBoth = [await analytics(author, first.id), await analytics(author, second.id)];

    expect(racingAnswers.length).toBeGreaterThan(80);
    for (const answer of [...aloneAnswers, ...racingAnswers]) expect(answer.status).toBe(200);
    for (const [index] of plans.entries()) {
      const expected = await leftBy(alone[index] as Reader);
      expect(await leftBy(racing[index] as Reader), `reader ${index}`).toEqual(expected);
    }

    // What the reading rule computes, reader by reader.
    const main = await leftBy(racing[0] as Reader);
    expect(main.progress).toMatchObject([
      { number: 1, reading_time_seconds: needed + 20, completed: true, completion_percentage: 100 },
      { number: 2, reading_time_seconds: 100, completed: false, completion_percentage: 40 },
    ]);
    expect(main.progress[0]?.bookmarks).toEqual(Array.from({ length: 40 }, (_, k) => 1000 + k));
    expect(main.progress[0]?.completed_on).toBe(today);
    expect(main.progress[1]?.bookmarks).toHaveLength(30);
    expect(main.days.at(-1)).toEqual({ day: today, seconds: needed + 120, languages: ["en"] });
    expect(main.user?.last_read_on).toBe(today);
    expect(main.streak).toMatch(/^7 /);
    expect(main.achievements).toEqual(expect.arrayContaining(["first-chapter", "streak-7"]));
    const others = [];
    for (const reader of racing.slice(1)) others.push(await leftBy(reader));
    expect(
      others.map((left) => left.progress.map((row) => [row.reading_time_seconds, row.completed])),
    ).toEqual([[[needed + 5, true]], [[60, false]], [[20, false]]]);
    expect(others.map((left) => left.days.map((day) => day.seconds))).toEqual([[needed + 5], [60], [20]]);

    // Each achievement earned by the racing writes is announced once, by one of them, on either instance.
    const earnedAfter = await sql.query("select count(*)::int as n from user_achievements");
    const toasts = racingAnswers.flatMap((answer) => answer.earned);
    for (const answers of racingByReader) {
      const own = answers.flatMap((answer) => answer.earned);
      expect(new Set(own).size).toBe(own.length);
    }
    expect(toasts.length + aloneAnswers.flatMap((answer) => answer.earned).length).toBe(
      earnedAfter.rows[0].n - earnedBefore.rows[0].n,
    );
    expect(toasts.length).toBeGreaterThan(0);

    // The analytics: the racing readers are the sequential ones over again, so counts double and rates stay.
    const [chapterOne, chapterTwo] = afterAlone as [
      Awaited<ReturnType<typeof analytics>>,
      Awaited<ReturnType<typeof analytics>>,
    ];
    expect(chapterOne.figures).toMatchObject({ started: "3", finished: "2", reached: "3" });
    expect(chapterTwo.figures).toMatchObject({ started: "1", finished: "0", reached: "1" });
    for (const [index, before] of afterAlone.entries()) {
      const after = afterBoth[index];
      for (const key of ["started", "finished", "reached"])
        expect(after?.figures[key], key).toBe(String(2 * Number(before.figures[key])));
      expect(after?.figures.completionRate).toBe(before.figures.completionRate);
      expect(after?.figures.averageSeconds).toBe(before.figures.averageSeconds);
      expect(after?.tenths).toEqual(before.tenths.map(([tenth, count]) => [tenth, 2 * count]));
    }
  }, 240_000);
});
