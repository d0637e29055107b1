import { readAhead, readAheadNumbers } from "~/features/chapters/access";
import type { MembershipTier } from "~/features/membership/tiers";

/** Who a chapter opens to: everyone at its release, or a member tier reading ahead before it (ADR 45). */
export type Audience = "public" | Exclude<MembershipTier, "free">;

/** The tiers that read ahead, the widest first (a chapter opens to first_human before analyst). */
export const readAheadTiers = (Object.keys(readAhead) as MembershipTier[])
  .filter((tier): tier is Exclude<MembershipTier, "free"> => readAhead[tier] > 0)
  .sort((a, b) => readAhead[b] - readAhead[a]);

type Chapter = { id: number; number: number; releaseAt: Date };

/**
 * The openings that may be due at `now`: every chapter a read-ahead tier reads now (the announcement rows say
 * which were told already: those open when release e-mails began were marked then), and every chapter
 * released after `baseline` (when release e-mails began on this database) and by `now`. A chapter released
 * before the baseline is never announced: the first start mails nobody about the past.
 */
export function openingsBetween(
  published: Chapter[],
  baseline: Date,
  now: Date,
): { chapterId: number; audience: Audience }[] {
  const openings: { chapterId: number; audience: Audience }[] = [];
  for (const tier of readAheadTiers) {
    const ahead = readAheadNumbers(published, now, readAhead[tier]);
    for (const chapter of published)
      if (ahead.has(chapter.number)) openings.push({ chapterId: chapter.id, audience: tier });
  }
  for (const chapter of published) {
    const released = chapter.releaseAt.getTime();
    if (released <= now.getTime() && released > baseline.getTime())
      openings.push({ chapterId: chapter.id, audience: "public" });
  }
  return openings;
}

/** Whether a reader of `tier` reads what opened to `audience` (a wider read-ahead includes a narrower one). */
export function tierReaches(tier: MembershipTier, audience: Exclude<Audience, "public">): boolean {
  return readAhead[tier] >= readAhead[audience];
}
