import { z } from "zod";
import { normalisedText } from "~/lib/form-fields";
import { wholeNumber } from "~/lib/forms";

/** An announcement (ADR 95): a short title and a short Markdown text, counted in characters (code points). */
export const ANNOUNCEMENT_LIMITS = { title: 120, body: 2000, key: 64 } as const;

const characters = (text: string) => [...text].length;

/**
 * The publishing form. The title is one line (runs of white space made one space); the text keeps its lines.
 * `key` is the form's own key, drawn when the page was rendered: the same form sent twice publishes once.
 */
export const announcementSchema = z.object({
  title: z
    .string({ error: "admin.announcements.errors.title" })
    .transform((value) => value.replace(/\s+/g, " ").trim())
    .refine((value) => value.length > 0 && characters(value) <= ANNOUNCEMENT_LIMITS.title, {
      error: "admin.announcements.errors.title",
    }),
  bodyMd: z
    .string({ error: "admin.announcements.errors.body" })
    .transform((value) => normalisedText(value).trim())
    .refine((value) => value.length > 0 && characters(value) <= ANNOUNCEMENT_LIMITS.body, {
      error: "admin.announcements.errors.body",
    }),
  key: z
    .string({ error: "admin.announcements.errors.key" })
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { error: "admin.announcements.errors.key" }),
});

export type AnnouncementInput = z.output<typeof announcementSchema>;

/** Deleting one: its id as the list shows it. */
export const deleteAnnouncementSchema = z.object({
  id: wholeNumber(1, 2_147_483_647, "admin.announcements.errors.notFound"),
});

/** How many the home page shows, and for how long after publishing. */
export const HOME_ANNOUNCEMENTS = { count: 3, days: 30 } as const;
