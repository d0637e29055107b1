import { z } from "zod";
import { wikiSections } from "#db/schema";
import { artworkUrl, normalisedText } from "./chapter-form";
import { digestField } from "./site-form";

/** The wiki's sections, in the order the admin lists them. */
export const wikiSectionChoices = wikiSections;

/** Limits of the wiki page form. */
export const WIKI_LIMITS = { slug: 60, title: 120, summary: 300, order: 1000, bodyBytes: 100_000 } as const;

/** A whole number in [min, max] typed in a form, or null when left empty; anything else is `error`. */
export const optionalInteger = (min: number, max: number, error: string) =>
  z
    .string({ error })
    .trim()
    .max(12, { error })
    .transform((value, context) => {
      if (value === "") return null;
      const number = Number(value);
      if (!Number.isInteger(number) || number < min || number > max) {
        context.addIssue({ code: "custom", message: error });
        return z.NEVER;
      }
      return number;
    });

/**
 * The wiki page form (browser and action). `slug` is the page's address in its section (new pages only);
 * `revealsChapter` the chapter whose reading reveals the page (the spoiler-safe wiki), empty for none;
 * `base` the digest of the page as the form opened it (absent for a new page).
 */
export const wikiSchema = z.object({
  section: z.enum(wikiSections, { error: "admin.wiki.errors.section" }),
  slug: z
    .string({ error: "admin.wiki.errors.slug" })
    .trim()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "admin.wiki.errors.slug" })
    .max(WIKI_LIMITS.slug, { error: "admin.wiki.errors.slug" })
    .optional(),
  title: z
    .string({ error: "admin.wiki.errors.title" })
    .trim()
    .min(1, { error: "admin.wiki.errors.title" })
    .max(WIKI_LIMITS.title, { error: "admin.wiki.errors.title" }),
  summary: z
    .string({ error: "admin.wiki.errors.summary" })
    .trim()
    .min(1, { error: "admin.wiki.errors.summary" })
    .max(WIKI_LIMITS.summary, { error: "admin.wiki.errors.summary" }),
  order: optionalInteger(-WIKI_LIMITS.order, WIKI_LIMITS.order, "admin.wiki.errors.order").transform(
    (value) => value ?? 0,
  ),
  imageUrl: z
    .string({ error: "admin.chapter.errors.artworkUrl" })
    .trim()
    .refine((url) => url === "" || artworkUrl.test(url), {
      error: "admin.chapter.errors.artworkUrl",
    })
    .transform((url) => url || null),
  revealsChapter: optionalInteger(1, 1_000_000, "admin.wiki.errors.reveals"),
  bodyMd: z
    .string({ error: "admin.wiki.errors.body" })
    .transform(normalisedText)
    .refine((text) => new TextEncoder().encode(text).length <= WIKI_LIMITS.bodyBytes, {
      error: "admin.wiki.errors.body",
    }),
  base: digestField.optional(),
});

export type WikiForm = z.output<typeof wikiSchema>;
