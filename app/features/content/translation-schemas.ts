import { z } from "zod";
import { NOTE_MAX_CHARS, withinNoteLimit } from "~/lib/markdown-limits";

/**
 * The front matter of a translation (`translations/<lang>/<the original's path>`, ADR 86): only the fields a
 * reader reads, named as the original's, each capped. `originalDigest` (written by the export) is the digest
 * of the original's text the translation was made from; absent, an import takes the original as it is then.
 */
const line = (max = 200) => z.string().trim().min(1).max(max);
const originalDigest = z
  .string()
  .regex(/^[0-9a-f]{32}$/, "must be the 32 hex digits an export writes")
  .optional();

/** A translated author's note (ADR 100): as the original's front matter limits it (ADR 95); blank is none. */
const note = z
  .string()
  .trim()
  .refine(withinNoteLimit, { error: `must be at most ${NOTE_MAX_CHARS} characters` })
  .optional();

/** The longest translated body: a chapter's, and anything else's. */
export const TRANSLATED_CHAPTER_MAX = 400_000;
export const TRANSLATED_BODY_MAX = 100_000;

export const translationSchemas = {
  chapter: z.strictObject({
    title: line(),
    artwork: z
      .array(z.strictObject({ caption: z.string().trim().max(500).default("") }))
      .max(50)
      .default([]),
    /** For each block of the translation, the original's block it renders (numbered from 1). */
    paragraphMap: z.array(z.number().int().min(1).max(100_000)).max(100_000).optional(),
    /** The translation's own author's notes before and after its text (Markdown, ADR 100). */
    noteBefore: note,
    noteAfter: note,
    originalDigest,
  }),
  site: z.strictObject({
    title: line(),
    tagline: line(300),
    synopsis: z.string().trim().max(5_000).optional(),
    location: line(),
    role: line(),
    socialLabel: line(),
    communityLabel: line(),
    originalDigest,
  }),
  legal: z.strictObject({ title: line(), originalDigest }),
  volume: z.strictObject({ title: line(), originalDigest }),
  gallery: z.strictObject({ title: line(), originalDigest }),
  wiki: z.strictObject({ title: line(), summary: line(500), originalDigest }),
  product: z.strictObject({ name: line(), originalDigest }),
  tier: z.strictObject({ name: line(), perks: z.array(line(300)).max(30), originalDigest }),
  coinPack: z.strictObject({ originalDigest }),
  fundraiser: z.strictObject({
    goals: z
      .array(
        z.strictObject({
          title: line(),
          description: z.string().trim().max(TRANSLATED_BODY_MAX).optional(),
          originalDigest,
        }),
      )
      .min(1)
      .max(50),
  }),
} as const;

export type TranslationFileKind = keyof typeof translationSchemas;
