import { describe, expect, it } from "vitest";
import { holdsPerk, perksOf } from "./perks";

describe("perks", () => {
  it("gives each tier its own perks and the lower tiers'", () => {
    expect(perksOf("free")).toEqual([]);
    expect(perksOf("observer")).toEqual(["early_access", "discord_role"]);
    expect(perksOf("analyst")).toEqual(["early_access", "discord_role", "monthly_qa", "art_votes"]);
    expect(perksOf("first_human")).toHaveLength(6);
  });

  it("refuses a perk to a tier below the one that names it", () => {
    expect(holdsPerk("observer", "monthly_qa")).toBe(false);
    expect(holdsPerk("analyst", "beta_reading")).toBe(false);
    expect(holdsPerk("first_human", "art_votes")).toBe(true);
  });
});
