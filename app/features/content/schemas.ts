import { z } from "zod";
import {
  goalPeriods,
  productCategories,
  supporterTiers,
  tierKeys,
  variantKinds,
  wikiSections,
} from "#db/schema";
import { achievementRules } from "~/features/achievements/rule-names";
import { NOTE_MAX_CHARS, withinNoteLimit } from "~/lib/markdown-limits";

/** A calendar date or a date-time with an offset, as written in front matter. */
const isoDate = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "must be an ISO 8601 date" })
  .transform((value) => new Date(value));

const cents = z.number().int().min(0);
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be a 3-letter currency code")
  .default("USD");
const mediaUrl = z.string().regex(/^(\/media\/[\w./-]+|https:\/\/\S+)$/, "must be /media/... or https://...");

/** `--MM-DD` (ISO 8601 month-day) means the next such day at 00:00 UTC after `now`. */
export function resolveReleaseAt(value: string, now: Date): Date {
  const monthDay = /^--(\d{2})-(\d{2})$/.exec(value);
  if (!monthDay) return new Date(value);
  const month = Number(monthDay[1]) - 1;
  const day = Number(monthDay[2]);
  for (let year = now.getUTCFullYear(); ; year++) {
    const candidate = new Date(Date.UTC(year, month, day));
    if (candidate.getTime() > now.getTime()) return candidate;
  }
}

export const releaseAtSchema = z.union([
  z.iso.datetime({ offset: true }),
  z.iso.date(),
  z.string().regex(/^--(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/),
]);

export const siteSchema = z.object({
  title: z.string().min(1),
  tagline: z.string().min(1),
  synopsis: z.string().default(""),
  author: z.string().min(1),
  location: z.string().min(1),
  role: z.string().min(1),
  startedYear: z.number().int().min(1900).max(3000),
  email: z.email(),
  socialLabel: z.string().min(1),
  socialUrl: z.url(),
  communityLabel: z.string().min(1),
  communityUrl: z.url(),
});

export const legalSchema = z.object({ title: z.string().min(1), updatedAt: isoDate });

export const volumeSchema = z.object({
  number: z.number().int().positive(),
  title: z.string().min(1),
  artwork: mediaUrl.optional(),
});

const noteText = z
  .string()
  .trim()
  .refine(withinNoteLimit, { error: `must be at most ${NOTE_MAX_CHARS} characters` });

export const chapterSchema = z.object({
  number: z.number().int().positive(),
  title: z.string().min(1),
  volume: z.number().int().positive(),
  releaseAt: releaseAtSchema,
  coinsRequired: z.number().int().min(0).default(0),
  tags: z.array(z.string().min(1)).default([]),
  status: z.enum(["draft", "published"]).default("published"),
  /** A draft offered to First Human supporters at /beta (ADR 83). */
  betaReaders: z.boolean().default(false),
  /** The author's notes before and after the text (Markdown, ADR 95), as the chapter form limits them. */
  noteBefore: noteText.optional(),
  noteAfter: noteText.optional(),
  artwork: z
    .array(
      z.object({ url: mediaUrl, position: z.enum(["before", "after"]), caption: z.string().default("") }),
    )
    .default([]),
});

/**
 * An uploaded image (`uploads/<hash>.md`, front matter only): what the admin recorded of it. Its files are
 * under `media/uploads/<hash>/`, written by the export with the rest of the media.
 */
export const uploadSchema = z.object({
  filename: z.string().min(1).max(120),
  contentType: z.enum(["image/png", "image/jpeg", "image/webp", "image/gif", "image/avif"]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  variants: z
    .array(
      z.object({
        key: z.string().regex(/^uploads\/[0-9a-f]{32}\/[\w.-]{1,40}$/),
        format: z.enum(["avif", "webp", "png", "jpeg"]),
        contentType: z.string().regex(/^image\/(avif|webp|png|jpeg)$/),
        width: z.number().int().positive(),
        height: z.number().int().positive(),
        bytes: z.number().int().positive(),
      }),
    )
    .min(1)
    .max(30),
});

export const wikiSchema = z.object({
  title: z.string().min(1),
  summary: z.string().min(1),
  order: z.number().int().default(0),
  image: mediaUrl.optional(),
  /** The chapter whose reading reveals this page (the spoiler-safe wiki). */
  revealsChapter: z.number().int().positive().optional(),
});
export const wikiSectionSchema = z.enum(wikiSections);
export type WikiSectionKey = z.infer<typeof wikiSectionSchema>;

export const gallerySchema = z.object({
  title: z.string().min(1),
  image: mediaUrl,
  order: z.number().int().default(0),
  createdAt: isoDate,
});

export const productSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  priceCents: cents,
  currency,
  category: z.enum(productCategories),
  membershipDays: z.number().int().min(0).default(0),
  stock: z.number().int().min(0),
  image: mediaUrl,
  addedAt: isoDate,
  /** "gallery": the buyer chooses one gallery piece (the Art Print). */
  variantKind: z.enum(variantKinds).nullable().default(null),
  requiresShipping: z.boolean().default(true),
  offersDedication: z.boolean().default(false),
});

export const tierSchema = z.object({
  key: z.enum(tierKeys),
  name: z.string().min(1),
  amountCents: cents.positive(),
  currency,
  perks: z.array(z.string().min(1)),
  order: z.number().int().default(0),
});

/** A coin pack on /coins; the file is `coin-packs/<key>.md`, its body a short line shown under the price. */
export const coinPackSchema = z.object({
  key: z.string().regex(/^[a-z0-9-]+$/, "must be lowercase letters, digits and dashes"),
  coins: z.number().int().positive(),
  priceCents: cents.positive(),
  currency,
  order: z.number().int().default(0),
});

const goalSchema = z
  .object({
    title: z.string().min(1),
    /** A campaign runs from `startsAt` to `endsAt` (open when absent); a monthly goal renews each month. */
    period: z.enum(goalPeriods).default("campaign"),
    targetCents: cents.positive(),
    currency,
    startsAt: isoDate,
    endsAt: isoDate.optional(),
    /** Markdown; the first goal's description is the file's body instead. */
    description: z.string().default(""),
  })
  .refine((goal) => !goal.endsAt || goal.endsAt > goal.startsAt, {
    message: "endsAt must be after startsAt",
    path: ["endsAt"],
  });

/** `goals` (a list), or the older single `goal` (a campaign), which reads as a list of one. */
export const fundraiserSchema = z.preprocess(
  (value) => {
    if (!value || typeof value !== "object" || !("goal" in value) || "goals" in value) return value;
    const { goal, ...rest } = value as { goal: unknown };
    return { ...rest, goals: [goal] };
  },
  z.object({
    goals: z
      .array(goalSchema)
      .min(1)
      .refine((goals) => new Set(goals.map((goal) => goal.title)).size === goals.length, {
        message: "goal titles must be unique",
      }),
    supporters: z
      .array(
        z.object({
          name: z.string().min(1),
          tier: z.enum(supporterTiers),
          emoji: z.string().default(""),
          amountCents: cents.positive(),
          supportedAt: isoDate,
        }),
      )
      .default([]),
  }),
);

const localized = z.object({
  en: z.string().min(1).max(200),
  es: z.string().min(1).max(200),
  fr: z.string().min(1).max(200),
  ja: z.string().min(1).max(200),
});

/** `achievements.md`: the catalogue; each entry's rule is one of features/achievements/rules.ts. */
export const achievementsSchema = z.object({
  achievements: z
    .array(
      z.object({
        key: z.string().regex(/^[a-z0-9-]+$/, "must be lowercase letters, digits and dashes"),
        icon: z.string().min(1).max(16),
        category: z.enum(["reading", "streaks", "collection", "support", "secrets"]),
        rule: z.enum(achievementRules),
        threshold: z.number().int().positive().optional(),
        hidden: z.boolean().default(false),
        order: z.number().int().default(0),
        name: localized,
        description: localized,
      }),
    )
    .default([]),
});
