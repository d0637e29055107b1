import { z } from "zod";
import { goalPeriods, type TierKey, tierKeys } from "#db/schema";
import { parseGiftAmount } from "~/features/fundraiser/gift";
import { digestField, localMinuteField, normalisedText } from "~/lib/form-fields";

/** Whether a posted key names one of the three support tiers. */
export const isTierKey = (value: unknown): value is TierKey => tierKeys.includes(value as TierKey);

/** The goal periods, in the order the form offers them. */
export const goalPeriodChoices = goalPeriods;

/** Limits of the tier and goal forms (characters; the goal's description in bytes; money in cents). */
export const FUNDRAISER_LIMITS = {
  tierName: 60,
  pitch: 500,
  perks: 12,
  perk: 200,
  order: 1000,
  tierMinCents: 1_00,
  tierMaxCents: 1_000_00,
  goalTitle: 120,
  descriptionBytes: 20_000,
  goalMinCents: 1_00,
  goalMaxCents: 9_999_999_99,
} as const;

/** Cents as the form shows them: "7", "7.5" is written "7.50". */
export function centsText(cents: number): string {
  return (cents / 100).toFixed(2).replace(/\.00$/, "");
}

const text = (max: number, error: string) => z.string({ error }).trim().min(1, { error }).max(max, { error });

/** An amount typed in the currency's units ("7", "7.50", "$7"), to cents within [min, max]. */
const money = (min: number, max: number, error: string) =>
  z
    .string({ error })
    .max(20, { error })
    .transform((value, context) => {
      const cents = parseGiftAmount(value);
      if (cents === undefined || cents < min || cents > max) {
        context.addIssue({ code: "custom", message: error });
        return z.NEVER;
      }
      return cents;
    });

const order = z
  .string({ error: "admin.tiers.errors.order" })
  .trim()
  .regex(/^-?\d{1,4}$/, { error: "admin.tiers.errors.order" })
  .transform(Number)
  .refine((value) => Math.abs(value) <= FUNDRAISER_LIMITS.order, { error: "admin.tiers.errors.order" });

/**
 * A tier's perks, one a line as the textarea sends them: trimmed, blank lines dropped, in the author's order;
 * at most 12 of at most 200 characters, each once (the page lists them by their text).
 */
const perks = z
  .string({ error: "admin.tiers.errors.perks" })
  .max(FUNDRAISER_LIMITS.perks * (FUNDRAISER_LIMITS.perk + 2) + 200, { error: "admin.tiers.errors.perks" })
  .transform((value) =>
    value
      .split(/\r\n?|\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  )
  .refine(
    (lines) =>
      lines.length <= FUNDRAISER_LIMITS.perks &&
      lines.every((line) => line.length <= FUNDRAISER_LIMITS.perk) &&
      new Set(lines).size === lines.length,
    { error: "admin.tiers.errors.perks" },
  );

/**
 * One support tier's form (browser and action). The key names the tier (the three are fixed: the membership
 * rules depend on them); the price is typed in dollars; `base` is the tier as the form opened it (a digest).
 */
export const tierSchema = z.object({
  key: z.enum(tierKeys, { error: "admin.tiers.errors.key" }),
  name: text(FUNDRAISER_LIMITS.tierName, "admin.tiers.errors.name"),
  amount: money(FUNDRAISER_LIMITS.tierMinCents, FUNDRAISER_LIMITS.tierMaxCents, "admin.tiers.errors.amount"),
  perks,
  pitch: z
    .string({ error: "admin.tiers.errors.pitch" })
    .transform(normalisedText)
    .pipe(z.string().trim().max(FUNDRAISER_LIMITS.pitch, { error: "admin.tiers.errors.pitch" })),
  order,
  base: digestField,
});

export type TierForm = z.output<typeof tierSchema>;

/** A 3-letter currency code the platform knows (upper case). */
const currency = z
  .string({ error: "admin.goals.errors.currency" })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, { error: "admin.goals.errors.currency" })
  .refine((code) => Intl.supportedValuesOf("currency").includes(code), {
    error: "admin.goals.errors.currency",
  });

/**
 * A fundraiser goal's form (browser and action). Its start and optional end are the author's wall-clock
 * times (`YYYY-MM-DDTHH:MM`), turned into instants in their zone by the action, as a chapter's release is;
 * the end must come after the start. `base` is the goal as the form opened it (absent for a new goal).
 */
export const goalSchema = z
  .object({
    title: text(FUNDRAISER_LIMITS.goalTitle, "admin.goals.errors.title"),
    descriptionMd: z
      .string({ error: "admin.goals.errors.description" })
      .transform((value) => normalisedText(value).trim())
      .refine((value) => new TextEncoder().encode(value).length <= FUNDRAISER_LIMITS.descriptionBytes, {
        error: "admin.goals.errors.description",
      }),
    period: z.enum(goalPeriods, { error: "admin.goals.errors.period" }),
    target: money(
      FUNDRAISER_LIMITS.goalMinCents,
      FUNDRAISER_LIMITS.goalMaxCents,
      "admin.goals.errors.target",
    ),
    currency,
    startsLocal: localMinuteField("admin.goals.errors.starts"),
    endsLocal: z
      .union([z.literal(""), localMinuteField("admin.goals.errors.ends")], {
        error: "admin.goals.errors.ends",
      })
      .default(""),
    base: digestField.optional(),
  })
  .refine((goal) => goal.endsLocal === "" || goal.endsLocal > goal.startsLocal, {
    error: "admin.goals.errors.ends",
    path: ["endsLocal"],
  });

export type GoalForm = z.output<typeof goalSchema>;

/** A goal as the editing functions take it: its times as instants (the action's zone applied). */
export type GoalInput = Omit<GoalForm, "startsLocal" | "endsLocal"> & { startsAt: Date; endsAt: Date | null };
