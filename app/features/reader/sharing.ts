/**
 * Whether a chapter page rendered for this reader may be kept and shown to others (the page cache groups
 * readers, server/page-cache.ts): every visitor sees the same page, and so does every signed-in reader who
 * may read the chapter, because nothing personal is on it (progress is fetched by the page); so does every
 * signed-in reader waiting for a chapter's release (the date; Notify me fetches its own state: ADR 50). An
 * author's page (drafts, no locks) and a coin-locked chapter's page (the reader's balance and offer) are the
 * reader's own. The one rule for the chapter route's shareable mark and the page cache's viewer lookup,
 * which also keeps readers waiting for a release apart from those who read it already (members read ahead).
 */
export function mayShareChapterPage(
  reader: { role: string } | undefined,
  lock: { kind: string } | undefined,
): boolean {
  return !reader || (reader.role === "reader" && (!lock || lock.kind === "release"));
}
