import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters } from "#db/schema";
import { renderMarkdownCached } from "~/features/content/markdown.server";

/**
 * A chapter's author's notes as the page shows them (ADR 95): sanitised HTML rendered by the site's Markdown
 * renderer (kept by the text's hash, so a note is parsed once per instance, not once per request), absent
 * where the author wrote none. On a page showing a translation, each note is the translation's own (ADR 100);
 * where it has none, the original's, marked `en` in `lang` (as on a page in another language with no
 * translation at all), so a reader never misses a note the original has.
 */
export type ChapterNotes = { before?: string; after?: string; lang?: { before?: "en"; after?: "en" } };

type Notes = { noteBefore: string | null; noteAfter: string | null };

export async function chapterNotes(
  chapterId: number,
  language: string,
  /** The translation the page shows, if it shows one. */
  translation?: Notes,
): Promise<ChapterNotes | undefined> {
  const [row] = await db()
    .select({ noteBefore: chapters.noteBefore, noteAfter: chapters.noteAfter })
    .from(chapters)
    .where(eq(chapters.id, chapterId));
  if (!row) return undefined;
  const notes: ChapterNotes = {};
  const lang: NonNullable<ChapterNotes["lang"]> = {};
  for (const [place, column] of [
    ["before", "noteBefore"],
    ["after", "noteAfter"],
  ] as const) {
    const own = translation?.[column];
    const text = own || row[column];
    if (!text) continue;
    notes[place] = renderMarkdownCached(text);
    if (!own && language !== "en") lang[place] = "en";
  }
  if (!notes.before && !notes.after) return undefined;
  return { ...notes, ...(lang.before || lang.after ? { lang } : {}) };
}
