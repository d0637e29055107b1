/**
 * The chapter access rule (DESIGN.md 2), as pure functions shared by the TOC, the reader and every listing.
 * Before `releaseAt` a chapter is locked; from then on it is free when it costs no coins, otherwise paid.
 */
export type ChapterStatus = "free" | "paid" | "locked";

export function chapterStatus(chapter: { releaseAt: Date; coinsRequired: number }, now: Date): ChapterStatus {
  if (chapter.releaseAt.getTime() > now.getTime()) return "locked";
  return chapter.coinsRequired === 0 ? "free" : "paid";
}
