import { z } from "zod";
import { wikiSections } from "#db/schema";
import {
  artworkUrl,
  digestField,
  markdownText,
  optionalInteger,
  requiredText,
  slugText,
} from "~/lib/form-fields";

/** The wiki's sections, in the order the admin lists them. */
export const wikiSectionChoices = wikiSections;

/** Limits of the wiki page form. */
export const WIKI_LIMITS = { slug: 60, title: 120, summary: 300, order: 1000, bodyBytes: 100_000 } as const;

/**
 * The wiki page form (browser and action). `slug` is the page's address in its section (new pages only);
 * `revealsChapter` the chapter whose reading reveals the page (the spoiler-safe wiki), empty for none;
 * `base` the digest of the page as the form opened it (absent for a new page).
 */
export const wikiSchema = z.object({
  section: z.enum(wikiSections, { error: "admin.wiki.errors.section" }),
  slug: slugText(WIKI_LIMITS.slug, "admin.wiki.errors.slug").optional(),
  title: requiredText(WIKI_LIMITS.title, "admin.wiki.errors.title"),
  summary: requiredText(WIKI_LIMITS.summary, "admin.wiki.errors.summary"),
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
  bodyMd: markdownText(WIKI_LIMITS.bodyBytes, "admin.wiki.errors.body"),
  base: digestField.optional(),
});

export type WikiForm = z.output<typeof wikiSchema>;
