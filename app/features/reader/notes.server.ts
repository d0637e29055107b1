import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters } from "#db/schema";
import { renderMarkdownCached } from "~/features/content/markdown.server";

/**
 * A chapter's author's notes as the page shows them (ADR 95): sanitised HTML rendered by the site's Markdown
 * renderer (kept by the text's hash, so a note is parsed once per instance, not once per request), absent
 * where the author wrote none. The notes are the original's: a page in another language marks them `en`.
 */
export type ChapterNotes = { before?: string; after?: string; lang?: "en" };

export async function chapterNotes(chapterId: number, language: string): Promise<ChapterNotes | undefined> {
  const [row] = await db()
    .select({ before: chapters.noteBefore, after: chapters.noteAfter })
    .from(chapters)
    .where(eq(chapters.id, chapterId));
  if (!row?.before && !row?.after) return undefined;
  return {
    ...(row.before ? { before: renderMarkdownCached(row.before) } : {}),
    ...(row.after ? { after: renderMarkdownCached(row.after) } : {}),
    ...(language === "en" ? {} : { lang: "en" as const }),
  };
}
