// npm run bench:analytics: fills a database with a generated serial (1,000 chapters) and readership (100,000
// readers, their progress, unlocks, reading days, payments and subscriptions) by `generate_series` inserts, then times the admin's overview and the
// chapter analytics against it and writes bench/results/analytics.json (checked by bench/check.mjs).
// PostgreSQL when DATABASE_URL is set (a database of its own: the tables are filled), else PGlite in a
// temporary directory, or in --data-dir=PATH, kept for the next run, which then measures without generating.
// Options: --readers=N, --chapters=N, --runs=N (default 5; the median counts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, sql } from "drizzle-orm";
import { type DatabaseHandle, openDatabase, setDatabase } from "#db/client.server";
import { chapterUnlocks, readingProgress } from "#db/schema";
import { analyticsOverview, chapterAnalytics } from "~/features/admin/analytics.server";
import { getOverview } from "~/features/admin/overview.server";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => [...arg.replace(/^--/, "").split("="), "true"].slice(0, 2)),
);
const readers = Number(args.readers ?? 100_000);
const chapterCount = Number(args.chapters ?? 1_000);
const runs = Number(args.runs ?? 5);

/**
 * The serial and its readers, in a few statements. Each reader starts at chapter 1 (four in five) or anywhere,
 * and reads on for a log-uniform number of chapters (1 to 100: most stop early, a few read far, about 21
 * chapters on average), stopping in each at a random place (60 % past the finishing line); a paid chapter read
 * is unlocked one time in three. `setseed` makes the rows the same on every run.
 */
async function generate(handle: DatabaseHandle) {
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(0.2026)`);
    await tx.execute(sql`insert into volumes (number, title) values (1, 'Generated volume')`);
    await tx.execute(sql`
      insert into chapters (number, volume_id, title, body_md, word_count, release_at, coins_required)
      select g, (select id from volumes where number = 1), 'Generated chapter ' || g, 'Words.', 1,
        now() - interval '1 day', case when g <= 10 then 0 else 1 + g % 3 end
      from generate_series(1, ${chapterCount}) g`);
    await tx.execute(sql`
      insert into users (username, email)
      select 'bench' || g, 'bench' || g || '@example.com' from generate_series(1, ${readers}) g`);
    // The stopping place is drawn in the select list of the join, so once per row (a lateral subquery's
    // would be memoized per chapter by the planner: every reader of a chapter would stop at the same place).
    await tx.execute(sql`
      insert into reading_progress
        (user_id, chapter_id, completion_percentage, reading_time_seconds, scroll_position, completed)
      select user_id, chapter_id, percentage, seconds, percentage / 100.0, percentage >= 98 and seconds >= 30
      from (
        select r.id as user_id, c.id as chapter_id,
          case when random() < 0.6 then 98 + floor(random() * 3)::int else floor(random() * 98)::int end
            as percentage,
          floor(random() * 1800)::int as seconds
        from (
          select id,
            case when random() < 0.8 then 1 else 1 + floor(random() * ${chapterCount})::int end as start,
            floor(exp(random() * ln(100)))::int as depth
          from users
        ) r
        join chapters c on c.number >= r.start and c.number < r.start + r.depth
      ) rows`);
    await tx.execute(sql`
      insert into chapter_unlocks (user_id, chapter_id, coins_spent)
      select p.user_id, p.chapter_id, c.coins_required
      from reading_progress p join chapters c on c.id = p.chapter_id
      where c.coins_required > 0 and random() < 0.33`);
    // Visitors' reads and completions of each chapter on each of the last 40 days (ADR 58).
    await tx.execute(sql`
      insert into chapter_visitor_days (chapter_id, day, started, completed)
      select c.id, (current_date - d)::date, floor(random() * 50)::int, floor(random() * 20)::int
      from chapters c cross join generate_series(0, 39) d`);
    // What the overview counts: reading days (a reader reads on one day in four of the last 40), two months
    // of payments (two a reader), and a support subscription for one reader in five.
    await tx.execute(sql`
      insert into reading_days (user_id, day, seconds)
      select u.id, (current_date - d)::date, floor(random() * 3600)::int
      from users u cross join generate_series(0, 39) d
      where random() < 0.25`);
    await tx.execute(sql`
      update users set last_read_on = r.day
      from (select user_id, max(day) as day from reading_days group by user_id) r where r.user_id = users.id`);
    await tx.execute(sql`
      insert into payments (user_id, kind, provider, status, amount_cents, refunded_cents, currency, description,
        paid_at)
      select 1 + floor(random() * ${readers})::int,
        (array['coins', 'product', 'subscription', 'gift'])[1 + floor(random() * 4)::int], 'test',
        case when random() < 0.95 then 'paid' else 'refunded' end, 100 + floor(random() * 5000)::int, 0, 'USD',
        'Generated', now() - random() * interval '60 days'
      from generate_series(1, ${readers * 2}) g`);
    await tx.execute(sql`
      insert into subscriptions (user_id, provider, provider_subscription_id, tier_key, status, current_period_end)
      select id, 'test', 'tsub_bench_' || id, (array['observer', 'analyst', 'first_human'])[1 + id % 3], 'active',
        now() + (random() * 40 - 10) * interval '1 day'
      from users where id % 5 = 0`);
  });
  await handle.db.execute(sql`analyze`);
}

/** The median of `runs` timed calls, after one untimed call (plans and caches warm, as on a running site). */
async function timed(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10) / 10;
}

async function main() {
  const kept = args["data-dir"];
  const reused = kept !== undefined && fs.existsSync(path.join(kept, "pgdata"));
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-analytics-"));
  const url = process.env.DATABASE_URL;
  const handle = url
    ? await openDatabase({ kind: "postgres", url })
    : await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pgdata") });
  setDatabase(handle);
  try {
    await handle.migrate();
    const started = performance.now();
    if (!reused) await generate(handle);
    const generatedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const [[progress], [unlocks]] = await Promise.all([
      handle.db.select({ rows: count() }).from(readingProgress),
      handle.db.select({ rows: count() }).from(chapterUnlocks),
    ]);
    const [middle] = await chapterAnalytics().then((rows) => rows.slice(Math.floor(rows.length / 2)));
    const timings = {
      overview: await timed(() => getOverview()),
      analytics: await timed(() => analyticsOverview({ sort: "completionRate", descending: true, page: 1 })),
      chapter: await timed(() => chapterAnalytics(middle?.id)),
    };
    const result = {
      driver: handle.kind,
      readers,
      chapters: chapterCount,
      progressRows: progress?.rows,
      unlocks: unlocks?.rows,
      generatedSeconds,
      runs,
      medianMs: timings,
      at: new Date().toISOString(),
    };
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync("bench/results/analytics.json", `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await handle.close();
    setDatabase(undefined);
    if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
