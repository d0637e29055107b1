import { getDatabase } from "#db/client.server";
import { type ChapterCatalog, getChapterCatalog } from "~/features/chapters/catalog.server";
import {
  type Membership,
  membershipFromJson,
  membershipListsSql,
  type membershipOf,
} from "~/features/membership/queries.server";
import type { Grant } from "~/features/membership/tiers";
import { fromIso, fromIsoOrNull, type JsonRow } from "~/lib/json-row";
import { dayNumber, localDay } from "~/lib/local-time";
import { busySpans } from "./caught-up";
import { computeStreak, type Streak } from "./streaks";

/**
 * Everything about one reader that the dashboard, the streak and the achievements are computed from, read
 * in one statement whatever the number of chapters or days (loadReaderRecords): the account, reading days,
 * progress, unlocks, payments, settings, achievements earned, what the membership is decided from, and the
 * chapter catalogue (kept in memory until the content changes).
 */
export type ReaderRecords = {
  userId: number;
  now: Date;
  timeZone: string;
  today: string;
  createdAt: Date;
  days: { day: string; seconds: number; languages: string[] }[];
  progress: {
    chapterId: number;
    readingTimeSeconds: number;
    completed: boolean;
    completedAt: Date | null;
    completedLocal: string | null;
    bookmarks: number;
    lastReadAt: Date;
  }[];
  unlocks: { chapterId: number; createdAt: Date }[];
  /** What each paid payment bought (`coins`, `tierKey`: named in the reader's language by payments/item-name). */
  payments: {
    id: number;
    kind: string;
    status: string;
    description: string;
    coins: number;
    tierKey: string | null;
    createdAt: Date;
  }[];
  settingsChanged: boolean;
  membership: Membership;
  earned: { key: string; earnedAt: Date }[];
  catalog: ChapterCatalog;
  streak: Streak;
};

/**
 * The reader's records in one statement, planned once per connection (`preparedRows`): each list comes as a
 * JSON array from a subquery on the reader's own rows (their indexes), timestamps as ISO strings. On
 * PGlite's single connection ten small queries cost ten parses, plans and round trips (about 0.4 ms each
 * under Drizzle) where this one costs 0.3 ms in all.
 */
const recordsStatement = `select u.time_zone, u.created_at,
  (select coalesce(json_agg(json_build_object('day', d.day, 'seconds', d.seconds, 'languages', d.languages)
    order by d.day), '[]') from reading_days d where d.user_id = u.id),
  (select coalesce(json_agg(json_build_object('chapterId', p.chapter_id, 'readingTimeSeconds',
    p.reading_time_seconds, 'completed', p.completed, 'completedAt', p.completed_at, 'completedLocal',
    p.completed_local::text, 'bookmarks', cardinality(p.bookmarks), 'lastReadAt', p.last_read_at)), '[]')
    from reading_progress p where p.user_id = u.id),
  (select coalesce(json_agg(json_build_object('chapterId', c.chapter_id, 'createdAt', c.created_at)), '[]')
    from chapter_unlocks c where c.user_id = u.id),
  (select coalesce(json_agg(json_build_object('id', x.id, 'kind', x.kind, 'status', x.status, 'description',
    x.description, 'coins', x.coins, 'tierKey', x.tier_key, 'amountCents', x.amount_cents, 'refundedCents', x.refunded_cents, 'createdAt', x.created_at)
    order by x.created_at desc), '[]') from payments x where x.user_id = u.id and x.status in ('paid', 'refunded')),
  exists (select 1 from reading_settings s where s.user_id = u.id),
  (select coalesce(json_agg(json_build_object('key', e.key, 'earnedAt', e.earned_at)), '[]')
    from user_achievements e where e.user_id = u.id),
  ${membershipListsSql("u.id")}
from users u where u.id = $1`;

type RecordsRow = [
  string,
  Date,
  ReaderRecords["days"],
  JsonRow<ReaderRecords["progress"][number]>[],
  JsonRow<ReaderRecords["unlocks"][number]>[],
  JsonRow<ReaderRecords["payments"][number] & { amountCents: number; refundedCents: number }>[],
  boolean,
  JsonRow<ReaderRecords["earned"][number]>[],
  JsonRow<Grant>[],
  JsonRow<MembershipSubscription>[],
];

type MembershipSubscription = Parameters<typeof membershipOf>[0]["subscriptions"][number];

/** The reader's records, in one statement, and the chapter catalogue kept in memory. */
export async function loadReaderRecords(userId: number, now = new Date()): Promise<ReaderRecords> {
  const [[row], catalog] = await Promise.all([
    getDatabase().preparedRows("reader_records", recordsStatement, [String(userId)]),
    getChapterCatalog(),
  ]);
  const [timeZone, createdAt, days, progress, unlocks, paid, settingsChanged, earned, grants, subs] =
    (row ?? ["UTC", now, [], [], [], [], false, [], [], []]) as RecordsRow;
  const today = localDay(now, timeZone);
  const payments = paid.map(({ amountCents, refundedCents, ...payment }) => ({
    ...payment,
    createdAt: fromIso(payment.createdAt),
    net: amountCents - refundedCents,
  }));
  const records = {
    userId,
    now,
    timeZone,
    today,
    createdAt,
    days,
    progress: progress.map((entry) => ({
      ...entry,
      completedAt: fromIsoOrNull(entry.completedAt),
      lastReadAt: fromIso(entry.lastReadAt),
    })),
    unlocks: unlocks.map((unlock) => ({ ...unlock, createdAt: fromIso(unlock.createdAt) })),
    payments: payments.map(({ net: _net, ...payment }) => payment),
    settingsChanged,
    membership: membershipFromJson(
      {
        totalSpentCents: payments.reduce((sum, payment) => sum + payment.net, 0),
        grants,
        subscriptions: subs,
      },
      now,
    ),
    earned: earned.map((entry) => ({ ...entry, earnedAt: fromIso(entry.earnedAt) })),
    catalog,
  };
  const busy = busySpans({ ...records, todayNumber: dayNumber(today) });
  return { ...records, streak: computeStreak({ days, today, busy }) };
}
