import { z } from "zod";
import { digestField, normalisedText } from "~/lib/form-fields";
import { wholeNumber } from "~/lib/forms";

/** Limits of the site settings form (each a field's most characters, the about page's most bytes). */
export const SITE_LIMITS = {
  short: 100,
  tagline: 200,
  synopsis: 2000,
  url: 500,
  aboutBytes: 50_000,
} as const;

const text = (max: number, error: string) => z.string({ error }).trim().min(1, { error }).max(max, { error });

const httpsUrl = (error: string) =>
  z
    .string({ error })
    .trim()
    .max(SITE_LIMITS.url, { error })
    .refine((value) => URL.canParse(value) && new URL(value).protocol === "https:", { error });

/**
 * The site settings form (browser and action): what the header, the home page, the table of contents and
 * /about show. `base` is the settings as the form opened them (a digest): a save made from older settings
 * is a conflict, never an overwrite.
 */
export const siteSchema = z.object({
  title: text(SITE_LIMITS.short, "admin.site.errors.title"),
  tagline: text(SITE_LIMITS.tagline, "admin.site.errors.tagline"),
  synopsis: z
    .string({ error: "admin.site.errors.synopsis" })
    .trim()
    .max(SITE_LIMITS.synopsis, { error: "admin.site.errors.synopsis" })
    .transform(normalisedText),
  author: text(SITE_LIMITS.short, "admin.site.errors.author"),
  location: text(SITE_LIMITS.short, "admin.site.errors.location"),
  role: text(SITE_LIMITS.short, "admin.site.errors.role"),
  startedYear: wholeNumber(1900, 2100, "admin.site.errors.startedYear"),
  email: z
    .string({ error: "validation.email" })
    .trim()
    .max(254, { error: "validation.email" })
    .pipe(z.email({ error: "validation.email" })),
  socialLabel: text(SITE_LIMITS.short, "admin.site.errors.label"),
  socialUrl: httpsUrl("admin.site.errors.url"),
  communityLabel: text(SITE_LIMITS.short, "admin.site.errors.label"),
  communityUrl: httpsUrl("admin.site.errors.url"),
  aboutMd: z
    .string({ error: "admin.site.errors.about" })
    .transform(normalisedText)
    .refine((value) => new TextEncoder().encode(value).length <= SITE_LIMITS.aboutBytes, {
      error: "admin.site.errors.about",
    }),
  base: digestField,
});

export type SiteForm = z.output<typeof siteSchema>;

/** The form's fields, in its order. */
export const siteFields = [
  "title",
  "tagline",
  "synopsis",
  "author",
  "location",
  "role",
  "startedYear",
  "email",
  "socialLabel",
  "socialUrl",
  "communityLabel",
  "communityUrl",
  "aboutMd",
] as const;

/** The legal pages an author edits. */
export const legalSlugs = ["terms", "privacy"] as const;

/** The legal page form: its title, its text (Markdown, 100 KB at most), the date it takes effect. */
export const legalSchema = z.object({
  title: text(SITE_LIMITS.tagline, "admin.legal.errors.title"),
  bodyMd: z
    .string({ error: "admin.legal.errors.body" })
    .transform(normalisedText)
    .refine((value) => value.trim().length > 0 && new TextEncoder().encode(value).length <= 100_000, {
      error: "admin.legal.errors.body",
    }),
  updatedAt: z
    .string({ error: "admin.legal.errors.date" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "admin.legal.errors.date" })
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), { error: "admin.legal.errors.date" }),
  base: digestField,
});

export type LegalForm = z.output<typeof legalSchema>;
