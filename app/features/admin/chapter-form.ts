import { z } from "zod";

import { MARKDOWN_MAX_BYTES, markdownBytes } from "./editor/limits";

/** Limits of the chapter form: a chapter of 4,000 words is about 25 KB; the text may be 200 KB of UTF-8. */
export const CHAPTER_LIMITS = { title: 200, tags: 10, tag: 30, coins: 1000 } as const;

/** Form text as stored: line breaks as "\n" (forms post CRLF). */
export const normalisedText = (text: string) => text.replace(/\r\n?/g, "\n");

const integer = (min: number, max: number, error: string) =>
  z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });

/**
 * The chapter form (browser and action): the release is the author's wall-clock time
 * (`YYYY-MM-DDTHH:MM`, a datetime-local input), turned into an instant in their zone by the action.
 */
export const chapterSchema = z.object({
  title: z
    .string({ error: "admin.chapter.errors.title" })
    .trim()
    .min(1, { error: "admin.chapter.errors.title" })
    .max(CHAPTER_LIMITS.title, { error: "admin.chapter.errors.title" }),
  volume: integer(1, 10_000, "admin.chapter.errors.volume"),
  bodyMd: z
    .string({ error: "admin.chapter.errors.body" })
    .transform(normalisedText)
    .refine((text) => markdownBytes(text) <= MARKDOWN_MAX_BYTES, { error: "admin.chapter.errors.bodyLong" }),
  status: z.enum(["draft", "published"], { error: "admin.chapter.errors.status" }),
  releaseLocal: z
    .string({ error: "admin.chapter.errors.release" })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { error: "admin.chapter.errors.release" })
    .refine((value) => !Number.isNaN(Date.parse(`${value}:00Z`)), { error: "admin.chapter.errors.release" }),
  coinsRequired: integer(0, CHAPTER_LIMITS.coins, "admin.chapter.errors.coins"),
  tags: z
    .string()
    .max(CHAPTER_LIMITS.tags * (CHAPTER_LIMITS.tag + 2), { error: "admin.chapter.errors.tags" })
    .optional()
    .transform((value) =>
      [
        ...new Set(
          (value ?? "")
            .split(",")
            .map((tag) => tag.trim())
            .filter(Boolean),
        ),
      ].slice(0, CHAPTER_LIMITS.tags),
    )
    .refine((tags) => tags.every((tag) => tag.length <= CHAPTER_LIMITS.tag), {
      error: "admin.chapter.errors.tags",
    }),
  /** The version the editor opened (absent for a new chapter). */
  version: integer(1, 2_147_483_647, "admin.chapter.errors.version").optional(),
});

export type ChapterForm = z.output<typeof chapterSchema>;
