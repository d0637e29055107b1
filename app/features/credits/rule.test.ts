import { describe, expect, it } from "vitest";
import { tierForMembershipDays, tierForSpend } from "~/features/membership/tiers";
import { FIRST_HUMAN_DAYS, FIRST_HUMAN_SPEND_CENTS } from "./rule";

describe("the credits' figures", () => {
  it("are the membership rule's First Human thresholds", () => {
    expect(tierForSpend(FIRST_HUMAN_SPEND_CENTS)).toBe("first_human");
    expect(tierForSpend(FIRST_HUMAN_SPEND_CENTS - 1)).not.toBe("first_human");
    expect(tierForMembershipDays(FIRST_HUMAN_DAYS)).toBe("first_human");
    expect(tierForMembershipDays(FIRST_HUMAN_DAYS - 1)).not.toBe("first_human");
  });
});
