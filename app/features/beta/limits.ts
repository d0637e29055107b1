import { z } from "zod";
import { wholeNumber } from "~/lib/forms";

/** What a beta reader may write (docs/product-rules.md "Beta reading"). */
export const BETA_LIMITS = {
  /** A note's length, in characters once trimmed. */
  bodyMax: 2000,
  /** Notes one reader may leave on one chapter in any hour (counted under the reader's row lock). */
  perHour: 10,
  /** The highest paragraph number a form may name (a chapter's own count is checked by the command). */
  paragraphMax: 9999,
  /** How much of a paragraph is kept with a note on it, for the author to see what it was about. */
  quoteMax: 280,
} as const;

/** The chapter's number in /beta/<number>: a whole number, like /chapter/<number>. */
export const betaChapterNumber = wholeNumber(1, 1_000_000, "beta.errors.chapter");

/**
 * A note: its text, and the paragraph it is about, numbered from 1 as the page shows it (empty: the whole
 * chapter). The output's `paragraph` is the block's index in the text (from 0).
 */
export const feedbackSchema = z.object({
  body: z
    .string({ error: "beta.errors.empty" })
    .transform((text) => text.replace(/\r\n?/g, "\n").trim())
    .pipe(z.string().min(1, "beta.errors.empty").max(BETA_LIMITS.bodyMax, "beta.errors.tooLong")),
  paragraph: z
    .union([z.literal(""), wholeNumber(1, BETA_LIMITS.paragraphMax, "beta.errors.paragraph")], {
      error: "beta.errors.paragraph",
    })
    .optional()
    .transform((value) => (value === "" || value === undefined ? undefined : value - 1)),
});

export type FeedbackInput = z.output<typeof feedbackSchema>;

/** The admin's switch: offer the draft to beta readers, or stop. */
export const betaMarkSchema = z.object({
  betaReaders: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});
