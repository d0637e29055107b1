/**
 * Whether a chapter page rendered for this reader may be kept and shown to others (the page cache groups
 * readers, server/page-cache.ts): every visitor sees the same page, and so does every signed-in reader who
 * may read the chapter, because nothing personal is on it (progress is fetched by the page). An author's
 * page (drafts, no locks) and a locked chapter's page (the reader's balance and offer) are the reader's own.
 * The one rule for the chapter route's shareable mark and the page cache's viewer lookup.
 */
export function mayShareChapterPage(reader: { role: string } | undefined, locked: boolean): boolean {
  return !reader || (reader.role === "reader" && !locked);
}
