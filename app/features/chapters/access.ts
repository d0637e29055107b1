import type { MembershipTier } from "~/features/membership/tiers";

/**
 * The chapter access rule (docs/product-rules.md "Chapter access"), as pure functions shared by the TOC, the reader and every listing.
 * Before `releaseAt` a chapter is locked; from then on it is free when it costs no coins, otherwise paid.
 * Members read ahead: a tier with read-ahead k may read the first k chapters not yet released.
 */
export type ChapterStatus = "free" | "paid" | "locked";

export function chapterStatus(chapter: { releaseAt: Date; coinsRequired: number }, now: Date): ChapterStatus {
  if (chapter.releaseAt.getTime() > now.getTime()) return "locked";
  return chapter.coinsRequired === 0 ? "free" : "paid";
}

/** How many unreleased chapters each tier reads before release (docs/product-rules.md "Early access"). */
export const readAhead: Record<MembershipTier, number> = {
  free: 0,
  observer: 3,
  analyst: 5,
  first_human: 10,
};

/**
 * The chapters a member with read-ahead `count` may read now: the first `count` published chapters not yet
 * released, in release order (then number).
 */
export function readAheadNumbers(
  published: { number: number; releaseAt: Date }[],
  now: Date,
  count: number,
): Set<number> {
  if (count <= 0) return new Set();
  const upcoming = published
    .filter((chapter) => chapter.releaseAt.getTime() > now.getTime())
    .sort((a, b) => a.releaseAt.getTime() - b.releaseAt.getTime() || a.number - b.number);
  return new Set(upcoming.slice(0, count).map((chapter) => chapter.number));
}
