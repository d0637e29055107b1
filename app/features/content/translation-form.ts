import { z } from "zod";
import type { TranslationLanguage } from "#db/schema";
import { noteFieldOf } from "~/features/chapters/chapter-form";
import { normalisedText } from "~/lib/form-fields";
import { wholeNumber } from "~/lib/forms";
import { TRANSLATED_CHAPTER_MAX } from "./translation-schemas";

/** The title's limit: the import's (`translationSchemas.chapter`). */
export const TRANSLATED_TITLE_MAX = 200;

/**
 * The chapter translation form (browser and action): a title and a Markdown text, capped as an imported
 * file's are, the translation's own author's notes (ADR 100: as the original's, at most 10,000 characters
 * each, blank is none), and the version the editor opened (none for a translation not made yet).
 */
export const chapterTranslationSchema = z.object({
  title: z
    .string({ error: "admin.translation.errors.title" })
    .trim()
    .min(1, { error: "admin.translation.errors.title" })
    .max(TRANSLATED_TITLE_MAX, { error: "admin.translation.errors.title" }),
  bodyMd: z
    .string({ error: "admin.translation.errors.body" })
    .transform(normalisedText)
    .refine((text) => text.length <= TRANSLATED_CHAPTER_MAX, { error: "admin.translation.errors.bodyLong" }),
  noteBefore: noteFieldOf("admin.translation.errors.noteLong"),
  noteAfter: noteFieldOf("admin.translation.errors.noteLong"),
  version: wholeNumber(1, 2_147_483_647, "admin.translation.errors.version").optional(),
});

/** A translation to save; notes left out are kept as they are (a version restored whose notes are unknown). */
export type ChapterTranslationInput = {
  title: string;
  bodyMd: string;
  noteBefore?: string | null;
  noteAfter?: string | null;
};

/** A translation's state as the admin shows it: not made yet, or made from the original as it is or was. */
export type TranslationMark = "missing" | "current" | "stale";

/** The autosaved draft's key of a chapter's translation (the original's is `chapter:<id>`). */
export const translationDraftKey = (chapterId: number, language: TranslationLanguage) =>
  `chapter:${chapterId}:${language}`;
