import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapterUnlocks } from "#db/schema";
import type { KeptSessionUser, SessionUser } from "~/features/auth/session.server";
import type { ChapterFacts } from "~/features/chapters/catalog.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { getMembership } from "~/features/membership/queries.server";
import { chapterLock, type Lock } from "~/features/reader/access.server";
import { currentRevision, readContentRevision } from "~/features/site/revision.server";
import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { releaseTime } from "~/lib/clock.server";
import { getEnv } from "~/lib/env.server";

/** What a download holds: the whole serial, or one volume. */
export type EpubScope = { volume?: number };

export type BookChapter = { facts: ChapterFacts; lock?: Lock };
export type BookVolume = { number: number; title: string; summary: string; chapters: BookChapter[] };

/** What one reader's book is made of, decided before anything is built, and the key of the file it makes. */
export type BookContents = {
  key: string;
  scope: EpubScope;
  language: Language;
  /** Whom the copy is for: the reader's name, or "a visitor" in their language. */
  name: string;
  timeZone: string;
  origin: string;
  volumes: BookVolume[];
};

/**
 * The reader as `chapterLock` takes a kept session: their tier and unlocks read once, so the rule asks nothing
 * more for each chapter of the book.
 */
async function withAccess(
  user: SessionUser,
  now: Date,
): Promise<SessionUser & Pick<KeptSessionUser, "membershipTier" | "unlockedChapterIds">> {
  const [membership, unlocked] = await Promise.all([
    getMembership(user.id, now),
    db()
      .select({ id: chapterUnlocks.chapterId })
      .from(chapterUnlocks)
      .where(eq(chapterUnlocks.userId, user.id)),
  ]);
  return {
    ...user,
    membershipTier: membership.tier,
    unlockedChapterIds: new Set(unlocked.map((row) => row.id)),
  };
}

/**
 * The chapters of the scope (published, in number order, by volume), each with what locks it for this reader
 * by the one access rule of the chapter page (`chapterLock`: free and released, unlocked, read ahead by their
 * tier, everything for the author). Undefined when the scope holds no chapter (no such volume).
 *
 * The key names everything the file shows: the chapters in full and those locked (and why), the content
 * revision (every text, title, picture and setting), the name, language and time zone of the colophon and
 * the origin of its links. Two readers with the same access share nothing but the work: their names differ.
 */
export async function bookContents(
  user: SessionUser | undefined,
  scope: EpubScope,
  language: Language,
  now = releaseTime(),
): Promise<BookContents | undefined> {
  const catalog = await getChapterCatalog();
  const chapters = catalog.published.filter(
    (chapter) => scope.volume === undefined || chapter.volume.number === scope.volume,
  );
  if (chapters.length === 0) return undefined;
  const viewer = user ? await withAccess(user, now) : undefined;
  const locks = await Promise.all(chapters.map((chapter) => chapterLock(chapter, viewer, now)));
  const volumes: BookVolume[] = [];
  chapters.forEach((facts, index) => {
    let volume = volumes.at(-1);
    if (volume?.number !== facts.volume.number) {
      volume = {
        number: facts.volume.number,
        title: facts.volume.title,
        summary: facts.volume.summaryMd,
        chapters: [],
      };
      volumes.push(volume);
    }
    const lock = locks[index];
    volume.chapters.push(lock ? { facts, lock } : { facts });
  });
  const name = user?.username ?? serverTranslator(language)("epub.visitor");
  const timeZone = user?.timeZone ?? "UTC";
  const { origin } = getEnv();
  const revision = currentRevision() ?? (await readContentRevision());
  const holds = volumes.flatMap((volume) =>
    volume.chapters.map(({ facts, lock }) => [facts.id, lock?.kind ?? "open"]),
  );
  const key = createHash("sha256")
    .update(JSON.stringify({ scope, language, name, timeZone, origin, revision, holds }))
    .digest("base64url");
  return { key, scope, language, name, timeZone, origin, volumes };
}

/** The volumes a book can be downloaded of (those holding a published chapter), for the download links. */
export async function epubVolumes(): Promise<{ number: number; title: string }[]> {
  const volumes = new Map<number, string>();
  for (const chapter of (await getChapterCatalog()).published)
    volumes.set(chapter.volume.number, chapter.volume.title);
  return [...volumes].map(([number, title]) => ({ number, title }));
}
