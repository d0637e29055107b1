/**
 * Who is named in the credits (docs/product-rules.md "Credits"): every reader who has ever held the First
 * Human tier, whichever way, read from their records. The figures are the membership rule's
 * (features/membership/tiers.ts: `tierForSpend`, `tierForMembershipDays`); tests hold the two together.
 */
/** Net spend (paid less refunded) that gives First Human for good: a refund takes the money back. */
export const FIRST_HUMAN_SPEND_CENTS = 100_00;
/** Membership days in one grant that give First Human while they run (a revoked grant never counted). */
export const FIRST_HUMAN_DAYS = 180;
