import { z } from "zod";
import { artworkUrl, localMinuteField, normalisedText, requiredInteger } from "~/lib/form-fields";
import { wholeNumber } from "~/lib/forms";
import { MARKDOWN_MAX_BYTES, markdownBytes, NOTE_MAX_CHARS, withinNoteLimit } from "~/lib/markdown-limits";

/** Limits of the chapter form: a chapter of 4,000 words is about 25 KB; the text may be 200 KB of UTF-8. */
export const CHAPTER_LIMITS = {
  title: 200,
  tags: 10,
  tag: 30,
  coins: 1000,
  artwork: 3,
  caption: 300,
  /** An author's note before or after the text (Markdown, ADR 95), in characters. */
  note: NOTE_MAX_CHARS,
  /** The reader's routes take chapter numbers up to this. */
  number: 999_999,
} as const;

export type ArtworkField = `artwork${0 | 1 | 2}${"Url" | "Caption" | "Position"}`;

/** The form's artwork slots: `artwork0Url`, `artwork0Caption`, `artwork0Position`, then 1 and 2. */
export const artworkSlots = ([0, 1, 2] as const).map((slot) => ({
  url: `artwork${slot}Url` as const,
  caption: `artwork${slot}Caption` as const,
  position: `artwork${slot}Position` as const,
}));

const artworkFields = Object.fromEntries(
  artworkSlots.flatMap((slot) => [
    [
      slot.url,
      z
        .string()
        .trim()
        .refine((url) => url === "" || artworkUrl.test(url), { error: "admin.chapter.errors.artworkUrl" })
        .optional(),
    ],
    [
      slot.caption,
      z.string().trim().max(CHAPTER_LIMITS.caption, { error: "admin.chapter.errors.caption" }).optional(),
    ],
    [slot.position, z.enum(["before", "after"], { error: "admin.chapter.errors.position" }).optional()],
  ]),
) as Record<ArtworkField, z.ZodOptional<z.ZodType<string>>>;

const integerField = (min: number, max: number, error: string) => wholeNumber(min, max, error);

/**
 * An author's note (ADR 95): Markdown of at most `CHAPTER_LIMITS.note` characters (counted as code points,
 * after line ends are made `\n`), blank lines around it dropped; an empty note is no note (null). `error`: the
 * message of a refusal (a translation's note, ADR 100, names its own form's).
 */
export const noteFieldOf = (error: string) =>
  z
    .string({ error })
    .optional()
    .transform((value) => normalisedText(value ?? "").trim())
    .refine(withinNoteLimit, { error })
    .transform((text) => (text === "" ? null : text));

export const noteField = noteFieldOf("admin.chapter.errors.noteLong");

/**
 * The chapter form (browser and action): the release is the author's wall-clock time
 * (`YYYY-MM-DDTHH:MM`, a datetime-local input), turned into an instant in their zone by the action.
 */
export const chapterSchema = z
  .object({
    title: z
      .string({ error: "admin.chapter.errors.title" })
      .trim()
      .min(1, { error: "admin.chapter.errors.title" })
      .max(CHAPTER_LIMITS.title, { error: "admin.chapter.errors.title" }),
    volume: integerField(1, 10_000, "admin.chapter.errors.volume"),
    bodyMd: z
      .string({ error: "admin.chapter.errors.body" })
      .transform(normalisedText)
      .refine((text) => markdownBytes(text) <= MARKDOWN_MAX_BYTES, {
        error: "admin.chapter.errors.bodyLong",
      }),
    noteBefore: noteField,
    noteAfter: noteField,
    status: z.enum(["draft", "published"], { error: "admin.chapter.errors.status" }),
    releaseLocal: localMinuteField("admin.chapter.errors.release"),
    coinsRequired: integerField(0, CHAPTER_LIMITS.coins, "admin.chapter.errors.coins"),
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
    version: integerField(1, 2_147_483_647, "admin.chapter.errors.version").optional(),
    ...artworkFields,
  })
  // The slots as the chapter's artwork list: the filled ones, in order.
  .transform(({ version, ...fields }) => {
    const values: Partial<Record<ArtworkField, string>> = fields;
    const artwork = artworkSlots.flatMap((slot) => {
      const url = values[slot.url];
      if (!url) return [];
      const position = values[slot.position] === "after" ? "after" : "before";
      return [{ url, caption: values[slot.caption] ?? "", position } as const];
    });
    const rest = Object.fromEntries(
      Object.entries(fields).filter(([name]) => !/^artwork\d/.test(name)),
    ) as Omit<typeof fields, ArtworkField>;
    return { ...rest, version, artwork };
  });

export type ChapterForm = z.output<typeof chapterSchema>;

/** A chapter's artwork as the form's slot fields. */
export function artworkValues(artwork: { url: string; caption: string; position: string }[]) {
  return Object.fromEntries(
    artworkSlots.flatMap((slot, index) => {
      const art = artwork[index];
      return art
        ? [
            [slot.url, art.url],
            [slot.caption, art.caption],
            [slot.position, art.position],
          ]
        : [];
    }),
  ) as Partial<Record<ArtworkField, string>>;
}

/** Moving a chapter to another number: `from` is the number the author saw (a stale page is a conflict). */
export const moveSchema = z.object({
  from: requiredInteger(1, CHAPTER_LIMITS.number, "admin.chapter.errors.number"),
  to: requiredInteger(1, CHAPTER_LIMITS.number, "admin.chapter.errors.number"),
});
