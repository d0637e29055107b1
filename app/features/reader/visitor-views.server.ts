import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapterVisitorDays, visitorViewKey } from "#db/schema";
import { blockedFor, hit, type Rule } from "~/features/auth/throttle.server";
import type { ChapterFacts } from "~/features/chapters/catalog.server";
import type { ChapterProgress } from "./progress";
import { countReading, countsAsCompleted, countsAsRead } from "./reading-rule";

/**
 * Visitors' reading, counted without knowing who reads (ADR 58): no cookie, nothing stored of the visitor.
 * The chapter page sends a visitor's progress as it sends a reader's; the answer carries a signed "view"
 * (the chapter, the seconds counted, the server's clock mark, whether this view was counted as read and as
 * completed), which the page keeps in memory and sends back with its next write. The server counts reading
 * time by the same rule as a reader's, from the view it signed, and adds one to the chapter's day counter
 * the first time a view counts as read and as completed. A page reloaded starts a new view.
 */
export type VisitorView = {
  chapter: number;
  counted: number;
  countedAt: number;
  started: boolean;
  completed: boolean;
};

/** A view is kept for a day at most: one left open longer starts again. */
const VIEW_LIFETIME_MS = 86_400_000;

/** A view as the page sends it back: at most this long (a signed view is about 60 characters). */
export const MAX_VIEW_LENGTH = 200;

/**
 * Counts one network address may add in an hour (reads and completions together): a visitor reading a few
 * words' chapter counts at most once in 30 s, so 240 an hour is far beyond one reader, and bounds what a
 * replayed view can add. The address is only a key of the existing rate limits, never kept with the counts.
 */
export const visitorCountRule: Rule = { limit: 240, windowSeconds: 60 * 60, blockSeconds: 15 * 60 };

let key: Promise<Buffer> | undefined;

/** The signing key, made once by whichever server first needs it (a second one to try keeps the first). */
function signingKey(): Promise<Buffer> {
  key ??= (async () => {
    await db()
      .insert(visitorViewKey)
      .values({ id: 1, secret: randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await db().select({ secret: visitorViewKey.secret }).from(visitorViewKey);
    if (!row) throw new Error("visitor_view_key has no row");
    return Buffer.from(row.secret, "base64url");
  })().catch((error: unknown) => {
    key = undefined;
    throw error;
  });
  return key;
}

const mac = (secret: Buffer, payload: string) =>
  createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22);

export async function signView(view: VisitorView): Promise<string> {
  const payload = [
    view.chapter,
    view.counted,
    view.countedAt,
    Number(view.started),
    Number(view.completed),
  ].join(".");
  return `${payload}.${mac(await signingKey(), payload)}`;
}

/** The view the server signed, or undefined for anything else (altered, foreign, malformed). */
export async function readView(sent: string | undefined): Promise<VisitorView | undefined> {
  if (!sent || sent.length > MAX_VIEW_LENGTH) return undefined;
  const parts = sent.split(".");
  if (parts.length !== 6) return undefined;
  const [chapter, counted, countedAt, started, completed, signature] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const expected = Buffer.from(mac(await signingKey(), parts.slice(0, 5).join(".")));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return {
    chapter: Number(chapter),
    counted: Number(counted),
    countedAt: Number(countedAt),
    started: started === "1",
    completed: completed === "1",
  };
}

/**
 * A visitor's write in an open chapter: the view it continues (when it is this chapter's and not too old) or a
 * new one, the reading time counted by the rule, and the chapter's counters moved once per view. Returns the
 * view to send back. `address` keys the rate limit only.
 */
export async function countVisitorProgress(
  chapter: Pick<ChapterFacts, "id" | "number" | "wordCount">,
  progress: ChapterProgress,
  sentView: string | undefined,
  address: string,
  now = new Date(),
): Promise<string> {
  const previous = await readView(sentView);
  const view: VisitorView =
    previous && previous.chapter === chapter.number && now.getTime() - previous.countedAt < VIEW_LIFETIME_MS
      ? previous
      : { chapter: chapter.number, counted: 0, countedAt: Number.NaN, started: false, completed: false };
  const count = countReading(
    progress.readingTime,
    view.counted,
    Number.isNaN(view.countedAt) ? undefined : view.countedAt,
    now.getTime(),
  );
  const counted = view.counted + count.seconds;
  const started = !view.started && countsAsRead(counted, false);
  const completed = !view.completed && countsAsCompleted(progress.completed, counted, chapter.wordCount);
  let counts = { started, completed };
  if (started || completed) {
    const limitKey = `visitor-count:ip:${address}`;
    // Past the limit the view goes on, uncounted: the page is told nothing (it has nothing to show).
    if ((await blockedFor(limitKey)) > 0) counts = { started: false, completed: false };
    else {
      await hit(limitKey, visitorCountRule);
      await addVisitorCounts(chapter.id, now, counts);
    }
  }
  return signView({
    chapter: chapter.number,
    counted,
    countedAt: count.countedAt,
    started: view.started || counts.started,
    completed: view.completed || counts.completed,
  });
}

/** One more read and/or completion of a chapter today (UTC), atomically (concurrent writes all count). */
export async function addVisitorCounts(
  chapterId: number,
  now: Date,
  counts: { started: boolean; completed: boolean },
) {
  const started = Number(counts.started);
  const completed = Number(counts.completed);
  await db()
    .insert(chapterVisitorDays)
    .values({ chapterId, day: now.toISOString().slice(0, 10), started, completed })
    .onConflictDoUpdate({
      target: [chapterVisitorDays.chapterId, chapterVisitorDays.day],
      set: {
        started: sql`${chapterVisitorDays.started} + excluded.started`,
        completed: sql`${chapterVisitorDays.completed} + excluded.completed`,
      },
    });
}
