import { holdsPerk } from "~/features/membership/perks";
import type { MembershipTier } from "~/features/membership/tiers";

/**
 * The rules of votes on art (docs/product-rules.md "Votes on art"), apart from the database so a test states
 * them: a poll is open from its open time (included) to its close time (excluded); readers holding the
 * `art_votes` perk (Analyst and above, however they hold the tier) vote once and may change their vote while
 * it is open; the results show to a reader who voted, and to everyone once it closed.
 */
export type PollPhase = "upcoming" | "open" | "closed";

export function pollPhase(poll: { opensAt: Date; closesAt: Date }, now: Date): PollPhase {
  if (now.getTime() < poll.opensAt.getTime()) return "upcoming";
  return now.getTime() < poll.closesAt.getTime() ? "open" : "closed";
}

/** Why a reader may not vote now, as the message key the page shows; undefined when they may. */
export type VoteRefusal = "signIn" | "tier" | "notOpen" | "closed";

export function voteRefusal(tier: MembershipTier | undefined, phase: PollPhase): VoteRefusal | undefined {
  if (phase === "closed") return "closed";
  if (phase === "upcoming") return "notOpen";
  if (tier === undefined) return "signIn";
  return holdsPerk(tier, "art_votes") ? undefined : "tier";
}

/** The results show to a reader who voted (whatever their tier now), and to everyone once the poll closed. */
export function resultsVisible(phase: PollPhase, voted: boolean): boolean {
  return phase === "closed" || voted;
}

/** Each option's share of the votes, whole percents that add up to 100 (largest remainders), 0 with none. */
export function percentages(counts: readonly number[]): number[] {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return counts.map(() => 0);
  const exact = counts.map((count) => (count * 100) / total);
  const whole = exact.map(Math.floor);
  let left = 100 - whole.reduce((sum, value) => sum + value, 0);
  const byRemainder = exact.map((value, index) => ({ index, rest: value - Math.floor(value) }));
  byRemainder.sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    whole[index] = (whole[index] ?? 0) + 1;
    left--;
  }
  return whole;
}
