import type { WallTier } from "#db/schema";

/** The wall's labels (db/schema/fundraiser.ts `wallTiers`), as a value the browser may import. */
export const wallTiers = [
  "Founder",
  "Sustainer",
  "Supporter",
  "observer",
  "analyst",
  "first_human",
  "gift",
] as const satisfies readonly WallTier[];
