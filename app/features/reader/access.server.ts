import { and, eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, chapterUnlocks } from "#db/schema";
import type { KeptSessionUser, SessionUser } from "~/features/auth/session.server";
import { chapterStatus, readAhead, readAheadNumbers } from "~/features/chapters/access";
import {
  type ChapterCatalog,
  type ChapterFacts,
  endsVolume,
  getChapterCatalog,
  neighbours,
} from "~/features/chapters/catalog.server";
import { CHAPTER_RENDERER, type ChapterSource, renderChapter } from "~/features/content/markdown.server";
import { getMembership } from "~/features/membership/queries.server";
import type { MembershipTier } from "~/features/membership/tiers";
import { isTranslationLanguage } from "~/features/translations/languages";
import {
  chapterLanguages,
  chapterTranslation,
  textField,
  translationOf,
  untranslatedNote,
} from "~/features/translations/reading.server";
import { picturesByHash } from "~/features/uploads/store.server";
import { boundedMemo } from "~/lib/bounded-memo";
import { releaseTime } from "~/lib/clock.server";
import { readingMinutes } from "~/lib/words";
import { chapterNotes } from "./notes.server";
import { sideBySideHtml } from "./side-by-side.server";

/** The smallest coin pack that covers a locked chapter (purchase.server.ts). */
export type PurchaseOffer = { packKey: string; coins: number; priceCents: number; currency: string };
/** A payment started from this chapter, as the reader comes back from it (purchase.server.ts). */
export type ReturnedPayment = { status: string; coins: number; cancelled: boolean };

export type Lock =
  | { kind: "release"; releaseAt: string }
  | {
      kind: "coins";
      coinsRequired: number;
      signedIn: boolean;
      balance: number;
      /** For a signed-in reader, added by the route (purchase.server.ts). */
      offer?: PurchaseOffer;
      payment?: ReturnedPayment;
      /**
       * Why the reader's automatic unlocking did not unlock it on arrival (ADR 90): their daily cap, too few
       * coins, or "withheld" (a prefetch, which spends nothing: the page asks again once it shows).
       */
      auto?: "cap" | "insufficient-coins" | "withheld";
    };

/** A chapter as the catalog has it, or undefined when it does not exist for this reader (drafts). */
export async function findChapter(
  number: number,
  user: SessionUser | undefined,
): Promise<ChapterFacts | undefined> {
  return visibleChapter(await getChapterCatalog(), number, user);
}

/** `findChapter` in a catalogue at hand: a draft exists for the author alone. */
export function visibleChapter(
  catalog: ChapterCatalog,
  number: number,
  user: { role: string } | undefined,
): ChapterFacts | undefined {
  const chapter = catalog.byNumber.get(number);
  if (!chapter || (chapter.status === "draft" && user?.role !== "author")) return undefined;
  return chapter;
}

/**
 * Whether a reader may read a chapter now (docs/product-rules.md "Chapter access"), or what locks it. The one rule the reader, the
 * page cache's grouping of readers and every listing share.
 */
export async function chapterLock(
  chapter: ChapterFacts,
  /** A kept session (the viewer check) brings its membership tier: no query for it (ADR 51). */
  user: SessionUser | KeptSessionUser | undefined,
  now = releaseTime(),
): Promise<Lock | undefined> {
  const known = lockWithoutQuery(chapter, user, now);
  if (known || !user) return known?.lock;
  if (chapterStatus(chapter, now) === "locked") {
    const tier = "membershipTier" in user ? user.membershipTier : undefined;
    if ((await readsAheadOf(user.id, now, tier)).has(chapter.number)) return undefined;
    return releaseLock(chapter);
  }
  const kept = "unlockedChapterIds" in user ? user.unlockedChapterIds : undefined;
  if (kept ? kept.has(chapter.id) : await hasUnlocked(user.id, chapter.id)) return undefined;
  return coinsLock(chapter, user);
}

/**
 * `chapterLock`'s answer when it needs no query (the author, a free chapter, a visitor), else undefined: the
 * page cache's hit path asks this first, without a promise.
 */
export function lockWithoutQuery(
  chapter: ChapterFacts,
  user: SessionUser | KeptSessionUser | undefined,
  now = releaseTime(),
): { lock: Lock | undefined } | undefined {
  if (user?.role === "author") return { lock: undefined };
  const status = chapterStatus(chapter, now);
  if (status === "free") return { lock: undefined };
  if (user) return undefined;
  return { lock: status === "locked" ? releaseLock(chapter) : coinsLock(chapter, undefined) };
}

const releaseLock = (chapter: ChapterFacts): Lock => ({
  kind: "release",
  releaseAt: chapter.releaseAt.toISOString(),
});

const coinsLock = (chapter: ChapterFacts, user: SessionUser | undefined): Lock => ({
  kind: "coins",
  coinsRequired: chapter.coinsRequired,
  signedIn: Boolean(user),
  balance: user?.coinBalance ?? 0,
});

/**
 * Whom an author previews a chapter as (`/chapter/N?as=…`): a visitor, a signed-in reader who has not unlocked
 * it, a reader who unlocked it, a First Human member.
 */
export const previewAudiences = ["visitor", "reader", "unlocked", "member"] as const;
export type PreviewAudience = (typeof previewAudiences)[number];

/**
 * What would lock a chapter for an audience were it published as saved (a draft included): the rule of
 * `chapterLock` for a visitor, for a reader who has not unlocked it and has no coins, for a reader who
 * unlocked it (nothing, once it is released: a chapter is unlocked only then), and for a First Human member
 * (who reads the first ten unreleased chapters, this one counted among the published).
 */
export async function lockFor(
  chapter: ChapterFacts,
  audience: PreviewAudience,
  now = releaseTime(),
): Promise<Lock | undefined> {
  const status = chapterStatus(chapter, now);
  if (status === "free") return undefined;
  if (status === "locked") {
    const published = (await getChapterCatalog()).published.filter((other) => other.id !== chapter.id);
    const ahead = readAheadNumbers([...published, chapter], now, readAhead.first_human);
    if (audience === "member" && ahead.has(chapter.number)) return undefined;
    return { kind: "release", releaseAt: chapter.releaseAt.toISOString() };
  }
  if (audience === "unlocked") return undefined;
  return {
    kind: "coins",
    coinsRequired: chapter.coinsRequired,
    signedIn: audience !== "visitor",
    balance: 0,
  };
}

/**
 * The unreleased chapters a reader's membership lets them read now (none for free readers). `tier`: the
 * reader's tier when already known (a kept session's: ADR 51).
 */
export async function readsAheadOf(
  userId: number,
  now = releaseTime(),
  tier?: MembershipTier,
): Promise<Set<number>> {
  tier ??= (await getMembership(userId, now)).tier;
  if (readAhead[tier] === 0) return new Set();
  return readAheadNumbers((await getChapterCatalog()).published, now, readAhead[tier]);
}

async function hasUnlocked(userId: number, chapterId: number): Promise<boolean> {
  const rows = await db()
    .select({ id: chapterUnlocks.id })
    .from(chapterUnlocks)
    .where(and(eq(chapterUnlocks.userId, userId), eq(chapterUnlocks.chapterId, chapterId)));
  return rows.length > 0;
}

/** The chapter's stored rendering when this renderer made it, else its text (read only then). */
async function loadSource(chapterId: number): Promise<ChapterSource> {
  const current = sql`${chapters.bodyHtmlRenderer} = ${CHAPTER_RENDERER}`;
  const [row] = await db()
    .select({
      html: sql<string | null>`case when ${current} then ${chapters.bodyHtml} end`,
      markdown: sql<string | null>`case when ${current} then null else ${chapters.bodyMd} end`,
    })
    .from(chapters)
    .where(eq(chapters.id, chapterId));
  return row?.html != null ? { html: row.html } : { markdown: row?.markdown ?? "" };
}

/**
 * A chapter's text as the reader shows it (sanitised HTML, numbered blocks, uploaded pictures), rendered once
 * per version of the chapter (its edit time): only when a version is not made yet is its row read, and its
 * text rendered only when the row has no current rendering (ADR 54).
 */
export function chapterHtml(chapter: { id: number; updatedAt: Date }): Promise<string> {
  return renderChapter(
    chapter.id,
    chapter.updatedAt,
    () => loadSource(chapter.id),
    (hashes) => picturesByHash(db(), hashes),
  );
}

/**
 * What of a chapter the page in `language` shows: its translation's title, captions and counts, or the
 * original's with the versions there are (English first) when it has none in that language.
 */
async function chapterInLanguage(chapter: ChapterFacts, language: string) {
  const translation = await chapterTranslation(chapter.id, language);
  const volume = isTranslationLanguage(language)
    ? await translationOf("volume", String(chapter.volume.number), language)
    : undefined;
  const volumeTitle = volume && textField(volume, "title", chapter.volume.title);
  if (!translation) {
    const untranslated = isTranslationLanguage(language)
      ? untranslatedNote(language, await chapterLanguages(chapter.id))
      : undefined;
    return {
      title: chapter.title,
      volumeTitle,
      wordCount: chapter.wordCount,
      cjkCount: 0,
      artwork: chapter.artwork,
      untranslated,
      translation: undefined,
    };
  }
  return {
    title: translation.title,
    volumeTitle,
    wordCount: translation.wordCount,
    cjkCount: translation.cjkCount,
    // Each caption in the original's order; an artwork without one keeps the original's.
    artwork: chapter.artwork.map((artwork, index) => ({
      ...artwork,
      caption: translation.captions[index] || artwork.caption,
    })),
    untranslated: undefined,
    translation,
  };
}

/** A translation's text as the reader shows it, rendered once per version as the original's is. */
function translatedChapterHtml(
  chapterId: number,
  language: string,
  translation: { bodyMd: string; bodyHtml: string | null; bodyHtmlRenderer: number | null; updatedAt: Date },
): Promise<string> {
  return renderChapter(
    `${chapterId}:${language}`,
    translation.updatedAt,
    () =>
      translation.bodyHtml !== null && translation.bodyHtmlRenderer === CHAPTER_RENDERER
        ? { html: translation.bodyHtml }
        : { markdown: translation.bodyMd },
    (hashes) => picturesByHash(db(), hashes),
  );
}

/**
 * A chapter as one reader may see it. The text is present only when the reader may read it: a locked
 * chapter's text never leaves the server, in the page or in its route data.
 */
export async function loadChapterForReader(
  number: number,
  user: SessionUser | undefined,
  now = releaseTime(),
  /** An author's preview: the chapter as this audience would see it (ignored for anyone else). */
  previewAs?: PreviewAudience,
  /** The language the page is rendered in: its translation is shown where there is one (ADR 86). */
  language = "en",
  /** The reader's side-by-side setting: a translation is shown with its original's paragraphs (ADR 97). */
  sideBySide = false,
) {
  const chapter = await findChapter(number, user);
  if (!chapter) return undefined;
  const shown = await chapterInLanguage(chapter, language);
  const preview = user?.role === "author" ? previewAs : undefined;
  const lock = preview ? await lockFor(chapter, preview, now) : await chapterLock(chapter, user, now);
  const catalog = await getChapterCatalog();
  const { previous, next } = neighbours(catalog, number);
  // Addressed by its number: the database id stays on the server (the page's route data is budgeted by byte).
  return {
    number: chapter.number,
    title: shown.title,
    volume: { number: chapter.volume.number, title: shown.volumeTitle ?? chapter.volume.title },
    wordCount: shown.wordCount,
    minutes: readingMinutes(shown.wordCount, shown.cjkCount),
    // The original shown on a page in another language: its blocks say so (`lang`), with a note of the
    // versions there are.
    ...(shown.untranslated ? { untranslated: shown.untranslated } : {}),
    previous,
    next,
    // Absent rather than undefined: the route data carries every key it is given (app/lib/router-internals.ts).
    ...(lock ? { lock } : {}),
    // The volume's last chapter ends with the credits' link.
    ...(endsVolume(catalog, chapter.number) ? { endsVolume: true as const } : {}),
    // A preview names the chapter's editor, for its banner's way back (its id: the author's page only).
    ...(preview ? { preview: { as: preview, editor: `/admin/chapters/${chapter.id}` } } : {}),
    artwork: lock ? [] : shown.artwork,
    ...(lock ? {} : await shownText(chapter, language, shown.translation, sideBySide)),
    // The author's notes, for a reader who may read the chapter only (never on the locked view).
    ...(lock ? {} : await notesOf(chapter.id, language, shown.translation)),
  };
}

async function notesOf(
  chapterId: number,
  language: string,
  translation: { noteBefore: string | null; noteAfter: string | null } | undefined,
) {
  const notes = await chapterNotes(chapterId, language, translation);
  return notes ? { notes } : {};
}

/**
 * The text a reader who may read the chapter sees: the original, its translation, or with `sideBySide` the
 * translation beside the original (marked `sideBySide`, so the page knows which it shows).
 */
async function shownText(
  chapter: ChapterFacts,
  language: string,
  translation: Awaited<ReturnType<typeof chapterInLanguage>>["translation"],
  sideBySide: boolean,
): Promise<{ html: string; sideBySide?: true }> {
  if (!translation) return { html: await chapterHtml(chapter) };
  const html = await translatedChapterHtml(chapter.id, language, translation);
  if (!sideBySide) return { html };
  // Made once per version of both texts, as each text's rendering is.
  const key = `${chapter.id}:${language}:${chapter.updatedAt.getTime()}:${translation.updatedAt.getTime()}`;
  const paired = await pairedTexts(key, async () =>
    sideBySideHtml(await chapterHtml(chapter), html, language, translation.paragraphMap),
  );
  return { html: paired, sideBySide: true };
}

/** Side-by-side texts made, by chapter, language and both texts' versions: a few chapters' worth. */
const pairedTexts = boundedMemo<Promise<string>>(50);

/** What the chapter page shows (features/reader/chapter-page.tsx). */
export type ChapterView = NonNullable<Awaited<ReturnType<typeof loadChapterForReader>>>;
