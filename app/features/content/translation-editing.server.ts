import { and, eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import {
  chapterRevisions,
  chapters,
  chapterTranslations,
  editorDrafts,
  type TranslationLanguage,
  translationLanguages,
} from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { chapterOriginal, digestOf } from "~/features/translations/originals.server";
import { stateOf } from "~/features/translations/status.server";
import { countCjk, countWords } from "~/lib/words";
import { notesOf } from "./chapter-editing.server";
import { chapterText } from "./markdown.server";
import { type ChapterTranslationInput, type TranslationMark, translationDraftKey } from "./translation-form";

/**
 * Each language's translation of a chapter, judged as `translationStatus` judges every one (ADR 86): from the
 * chapter's own original and its translations' recorded digests, two rows' worth, not the serial's texts.
 */
export async function chapterTranslationMarks(
  chapterNumber: number,
): Promise<{ language: TranslationLanguage; mark: TranslationMark }[]> {
  const [chapter] = await db()
    .select({
      id: chapters.id,
      title: chapters.title,
      artwork: chapters.artwork,
      bodyMd: chapters.bodyMd,
      noteBefore: chapters.noteBefore,
      noteAfter: chapters.noteAfter,
    })
    .from(chapters)
    .where(eq(chapters.number, chapterNumber));
  const made = chapter
    ? await db()
        .select({ language: chapterTranslations.language, sourceDigest: chapterTranslations.sourceDigest })
        .from(chapterTranslations)
        .where(eq(chapterTranslations.chapterId, chapter.id))
    : [];
  const digest = chapter && digestOf(originalOf(chapter));
  return translationLanguages.map((language) => {
    const recorded = made.find((row) => row.language === language)?.sourceDigest;
    return {
      language,
      mark: recorded === undefined || !digest ? "missing" : stateOf(recorded, digest),
    };
  });
}

/** The original (read only beside the translation) and the translation as the editor opens it, if made. */
export async function getChapterTranslationForEdit(chapterId: number, language: TranslationLanguage) {
  const [original] = await db()
    .select({
      id: chapters.id,
      number: chapters.number,
      title: chapters.title,
      bodyMd: chapters.bodyMd,
      noteBefore: chapters.noteBefore,
      noteAfter: chapters.noteAfter,
      artwork: chapters.artwork,
    })
    .from(chapters)
    .where(eq(chapters.id, chapterId));
  if (!original) return undefined;
  const [translation] = await db()
    .select({
      title: chapterTranslations.title,
      bodyMd: chapterTranslations.bodyMd,
      noteBefore: chapterTranslations.noteBefore,
      noteAfter: chapterTranslations.noteAfter,
      version: chapterTranslations.version,
      sourceDigest: chapterTranslations.sourceDigest,
      updatedAt: chapterTranslations.updatedAt,
    })
    .from(chapterTranslations)
    .where(and(eq(chapterTranslations.chapterId, chapterId), eq(chapterTranslations.language, language)));
  const stale = translation ? translation.sourceDigest !== digestOf(originalOf(original)) : false;
  return { original, translation, stale };
}

const originalOf = (chapter: Parameters<typeof chapterOriginal>[0]) => {
  const [fields, body] = chapterOriginal(chapter);
  return { fields, body };
};

/** What the audit log keeps of a translation: its title, its size and version (the revisions keep the text). */
const summary = (row: {
  title: string;
  bodyMd: string;
  noteBefore: string | null;
  noteAfter: string | null;
  version: number;
  language: string;
}) => ({
  language: row.language,
  title: row.title,
  words: countWords(row.bodyMd),
  // The notes' sizes in characters (0: none), as the original's audit has them (ADR 95).
  notes: [row.noteBefore?.length ?? 0, row.noteAfter?.length ?? 0],
  version: row.version,
});

export type TranslationSaveOutcome =
  | { ok: true; version: number }
  | { ok: false; reason: "notFound" }
  | {
      ok: false;
      reason: "conflict";
      /** The translation as it is now, saved (or imported) by someone else since the editor opened it. */
      current: { version: number; title: string; bodyMd: string } | undefined;
    };

/**
 * Saves a chapter's translation made from `baseVersion` (null: a translation not made yet), as the import
 * writes one (rendered, its words counted, CJK apart) and recording the original's digest now: it is current
 * until the original changes. The chapter's row is locked, so saves of its translations (and of itself) come
 * one at a time: a save from an older version is a conflict. The revisions get the version (and, on a first
 * edit of an imported one, the version it replaces), the audit log the change, and the author's draft goes.
 */
export function saveChapterTranslation(
  chapterId: number,
  language: TranslationLanguage,
  input: ChapterTranslationInput,
  baseVersion: number | null,
  actor: Actor & { via: "admin" },
): Promise<TranslationSaveOutcome> {
  // Rendered before the transaction: no lock is held while the text is parsed.
  const text = chapterText(input.bodyMd);
  return db().transaction(async (tx) => {
    const [original] = await tx.select().from(chapters).where(eq(chapters.id, chapterId)).for("update");
    if (!original) return { ok: false, reason: "notFound" };
    const key = and(eq(chapterTranslations.chapterId, chapterId), eq(chapterTranslations.language, language));
    const [current] = await tx.select().from(chapterTranslations).where(key);
    if ((current?.version ?? null) !== baseVersion)
      return {
        ok: false,
        reason: "conflict",
        current: current && { version: current.version, title: current.title, bodyMd: current.bodyMd },
      };
    // Notes the input leaves out are kept as they are.
    const notes = {
      noteBefore: input.noteBefore === undefined ? (current?.noteBefore ?? null) : input.noteBefore,
      noteAfter: input.noteAfter === undefined ? (current?.noteAfter ?? null) : input.noteAfter,
    };
    const row = {
      title: input.title,
      ...text,
      ...notes,
      wordCount: countWords(input.bodyMd),
      cjkCount: countCjk(input.bodyMd),
      sourceDigest: digestOf(originalOf(original)),
      updatedAt: sql`now()`,
    };
    const version = (current?.version ?? 0) + 1;
    if (current) {
      await tx
        .insert(chapterRevisions)
        .values({
          chapterId,
          language,
          version: current.version,
          title: current.title,
          bodyMd: current.bodyMd,
          notes: notesOf(current),
        })
        .onConflictDoNothing();
      await tx
        .update(chapterTranslations)
        .set({ ...row, version })
        .where(key);
    } else {
      await tx.insert(chapterTranslations).values({ chapterId, language, ...row, version });
    }
    await tx.insert(chapterRevisions).values({
      chapterId,
      language,
      version,
      title: input.title,
      bodyMd: input.bodyMd,
      notes: notesOf(notes),
      authorId: actor.userId,
    });
    await recordAudit(tx, actor, {
      action: current ? "translation.update" : "translation.create",
      subjectType: "chapter",
      subjectId: chapterId,
      before: current && summary(current),
      after: summary({ ...input, ...notes, language, version }),
    });
    await tx
      .delete(editorDrafts)
      .where(
        and(
          eq(editorDrafts.authorId, actor.userId),
          eq(editorDrafts.key, translationDraftKey(chapterId, language)),
        ),
      );
    return { ok: true, version };
  });
}
