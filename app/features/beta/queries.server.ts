import { and, count, desc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { betaFeedback, chapters, users } from "#db/schema";
import type { SessionUser } from "~/features/auth/session.server";
import { holdsPerk } from "~/features/membership/perks";
import { getMembership } from "~/features/membership/queries.server";
import { chapterHtml } from "~/features/reader/access.server";
import { releaseTime } from "~/lib/clock.server";
import { readingMinutes } from "~/lib/words";

/** A chapter is a beta chapter while it is a draft marked for beta readers; published, it is not one. */
const isBeta = and(eq(chapters.status, "draft"), eq(chapters.betaReaders, true));

/**
 * Whether this reader may read beta chapters: First Human supporters (the `beta_reading` perk, held while
 * the tier is), and the author. Read afresh from their membership, never from a kept page.
 */
export async function mayReadBeta(user: Pick<SessionUser, "id" | "role"> | undefined): Promise<boolean> {
  if (!user) return false;
  if (user.role === "author") return true;
  const { tier } = await getMembership(user.id, releaseTime());
  return holdsPerk(tier, "beta_reading");
}

/** The beta chapters, by number: what /beta lists for a reader who may read them. */
export function listBetaChapters() {
  return db()
    .select({
      number: chapters.number,
      title: chapters.title,
      wordCount: chapters.wordCount,
      updatedAt: chapters.updatedAt,
    })
    .from(chapters)
    .where(isBeta)
    .orderBy(chapters.number);
}

/** A beta chapter by its number, with its text rendered as the chapter page renders it; undefined if none. */
export async function loadBetaChapter(number: number) {
  const [chapter] = await db()
    .select({
      id: chapters.id,
      number: chapters.number,
      title: chapters.title,
      wordCount: chapters.wordCount,
      updatedAt: chapters.updatedAt,
    })
    .from(chapters)
    .where(and(eq(chapters.number, number), isBeta));
  if (!chapter) return undefined;
  return { ...chapter, minutes: readingMinutes(chapter.wordCount), html: await chapterHtml(chapter) };
}

export type BetaChapter = NonNullable<Awaited<ReturnType<typeof loadBetaChapter>>>;

/** The chapter editor's view of the mark: whether it is set, whether it may be, and the notes so far. */
export async function betaState(chapterId: number) {
  const [row] = await db()
    .select({ betaReaders: chapters.betaReaders, status: chapters.status, number: chapters.number })
    .from(chapters)
    .where(eq(chapters.id, chapterId));
  if (!row) return undefined;
  const [notes] = await db()
    .select({ n: count() })
    .from(betaFeedback)
    .where(eq(betaFeedback.chapterId, chapterId));
  return { ...row, feedback: notes?.n ?? 0 };
}

export type BetaState = NonNullable<Awaited<ReturnType<typeof betaState>>>;

/** Every note on a chapter, newest first, with who wrote it: for the author alone (the admin). */
export function feedbackFor(chapterId: number) {
  return db()
    .select({
      id: betaFeedback.id,
      paragraph: betaFeedback.paragraph,
      quote: betaFeedback.quote,
      body: betaFeedback.body,
      createdAt: betaFeedback.createdAt,
      username: users.username,
    })
    .from(betaFeedback)
    .innerJoin(users, eq(users.id, betaFeedback.userId))
    .where(eq(betaFeedback.chapterId, chapterId))
    .orderBy(desc(betaFeedback.createdAt), desc(betaFeedback.id))
    .limit(500);
}
