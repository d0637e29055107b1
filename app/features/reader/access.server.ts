import { and, asc, desc, eq, gt, lt } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, chapterUnlocks, volumes } from "#db/schema";
import type { SessionUser } from "~/features/auth/session.server";
import { chapterStatus } from "~/features/chapters/access";
import { renderChapter } from "~/features/content/markdown.server";
import { readingMinutes } from "~/lib/words";

export type Lock =
  | { kind: "release"; releaseAt: string }
  | { kind: "coins"; coinsRequired: number; signedIn: boolean; balance: number };

/**
 * A chapter as one reader may see it (DESIGN.md 2). The text is present only when the reader may read it:
 * a locked chapter's text never leaves the server, in the page or in its route data.
 */
export async function loadChapterForReader(number: number, user: SessionUser | undefined, now = new Date()) {
  const [chapter] = await db()
    .select({
      id: chapters.id,
      number: chapters.number,
      title: chapters.title,
      bodyMd: chapters.bodyMd,
      wordCount: chapters.wordCount,
      releaseAt: chapters.releaseAt,
      coinsRequired: chapters.coinsRequired,
      artwork: chapters.artwork,
      status: chapters.status,
      updatedAt: chapters.updatedAt,
      volumeNumber: volumes.number,
      volumeTitle: volumes.title,
    })
    .from(chapters)
    .innerJoin(volumes, eq(chapters.volumeId, volumes.id))
    .where(eq(chapters.number, number));
  const author = user?.role === "author";
  if (!chapter || (chapter.status === "draft" && !author)) return undefined;

  const published = eq(chapters.status, "published");
  const [previous] = await db()
    .select({ number: chapters.number })
    .from(chapters)
    .where(and(published, lt(chapters.number, number)))
    .orderBy(desc(chapters.number))
    .limit(1);
  const [next] = await db()
    .select({ number: chapters.number })
    .from(chapters)
    .where(and(published, gt(chapters.number, number)))
    .orderBy(asc(chapters.number))
    .limit(1);

  const status = chapterStatus(chapter, now);
  let lock: Lock | undefined;
  if (!author && status === "locked") lock = { kind: "release", releaseAt: chapter.releaseAt.toISOString() };
  if (!author && status === "paid") {
    const unlocked = user
      ? (
          await db()
            .select({ id: chapterUnlocks.id })
            .from(chapterUnlocks)
            .where(and(eq(chapterUnlocks.userId, user.id), eq(chapterUnlocks.chapterId, chapter.id)))
        ).length > 0
      : false;
    if (!unlocked) {
      lock = {
        kind: "coins",
        coinsRequired: chapter.coinsRequired,
        signedIn: Boolean(user),
        balance: user?.coinBalance ?? 0,
      };
    }
  }

  return {
    id: chapter.id,
    number: chapter.number,
    title: chapter.title,
    volume: { number: chapter.volumeNumber, title: chapter.volumeTitle },
    wordCount: chapter.wordCount,
    minutes: readingMinutes(chapter.wordCount),
    previous: previous?.number,
    next: next?.number,
    lock,
    artwork: lock ? [] : chapter.artwork,
    html: lock ? undefined : renderChapter(chapter.id, chapter.updatedAt, chapter.bodyMd),
  };
}
