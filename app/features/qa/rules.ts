import { z } from "zod";
import { checkbox } from "~/features/auth/schemas";
import { holdsPerk } from "~/features/membership/perks";
import type { MembershipTier } from "~/features/membership/tiers";
import { localDateTime } from "~/lib/local-time";

/**
 * Monthly Q&A's numbers (ADR 82, docs/product-rules.md "Monthly Q&A"): the page, the schemas, the commands and
 * the tests share them.
 */
export const QA_LIMITS = {
  /** Questions one reader may ask in a calendar month of the site's time zone. */
  perMonth: 3,
  questionMin: 10,
  questionMax: 1_000,
  title: 120,
  intro: 4_000,
  answer: 10_000,
} as const;

/** A month's key in URLs and rows: "2026-11". */
export type MonthKey = `${number}-${number}`;
const MONTH = /^(19[7-9]\d|20\d\d)-(0[1-9]|1[0-2])$/;

export function isMonthKey(value: string): value is MonthKey {
  return MONTH.test(value);
}

/** The calendar month holding `now` in `timeZone` (the site's, SITE_TIME_ZONE): the month a question counts in. */
export function monthKeyAt(now: Date, timeZone: string): MonthKey {
  return localDateTime(now, timeZone).slice(0, 7) as MonthKey;
}

/** Who may ask: a reader whose tier holds the monthly Q&A perk, while they hold it. */
export const mayAsk = (tier: MembershipTier) => holdsPerk(tier, "monthly_qa");

/** Form text as stored: line breaks as "\n" (forms post CRLF). */
const normalised = (text: string) => text.replace(/\r\n?/g, "\n");

/** The reader's question form, shared by the browser and the action; messages are catalogue keys. */
export const questionSchema = z.object({
  question: z
    .string({ error: "qa.errors.tooShort" })
    .trim()
    .min(QA_LIMITS.questionMin, { error: "qa.errors.tooShort" })
    .max(QA_LIMITS.questionMax, { error: "qa.errors.tooLong" })
    .transform(normalised),
  anonymous: checkbox,
});

export type QuestionInput = z.output<typeof questionSchema>;

/** The author's answer to one question: empty takes the answer back (the question stays unanswered). */
export const answerSchema = z.object({
  intent: z.literal("answer", { error: "admin.qa.errors.invalid" }),
  question: z.coerce
    .number({ error: "admin.qa.errors.invalid" })
    .int({ error: "admin.qa.errors.invalid" })
    .min(1, { error: "admin.qa.errors.invalid" })
    .max(2_147_483_647, { error: "admin.qa.errors.invalid" }),
  answer: z
    .string({ error: "admin.qa.errors.answerTooLong" })
    .trim()
    .max(QA_LIMITS.answer, { error: "admin.qa.errors.answerTooLong" })
    .transform(normalised),
});

export const qaVisibilityOptions = ["members", "everyone"] as const;

/** The month's page as the author writes it: title, intro and who reads the answers. */
export const monthSchema = z.object({
  intent: z.enum(["save", "publish"], { error: "admin.qa.errors.invalid" }),
  title: z
    .string({ error: "admin.qa.errors.titleRequired" })
    .trim()
    .min(1, { error: "admin.qa.errors.titleRequired" })
    .max(QA_LIMITS.title, { error: "admin.qa.errors.titleTooLong" })
    .refine((title) => !/\p{Cc}/u.test(title), { error: "admin.qa.errors.titleChars" }),
  intro: z
    .string({ error: "admin.qa.errors.introTooLong" })
    .trim()
    .max(QA_LIMITS.intro, { error: "admin.qa.errors.introTooLong" })
    .transform(normalised),
  visibility: z.enum(qaVisibilityOptions, { error: "admin.qa.errors.visibility" }),
});

export type MonthInput = z.output<typeof monthSchema>;
