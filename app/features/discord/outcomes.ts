/** How a link attempt ended: shown on /settings#discord (`discord.outcomes.*`), named in its query. */
export const linkOutcomes = [
  "linked",
  "unlinked",
  "invalid",
  "denied",
  "failed",
  "taken",
  "busy",
  "joinFailed",
  "notLinked",
] as const;
export type LinkOutcome = (typeof linkOutcomes)[number];

/** The outcome the settings page was sent back with, if it is one of ours. */
export function outcomeFrom(value: string | null): LinkOutcome | undefined {
  return linkOutcomes.find((outcome) => outcome === value);
}
