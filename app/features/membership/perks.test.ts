import { describe, expect, it } from "vitest";
import { holdsPerk, perkLinks, perksAddedBy, perksOf } from "./perks";

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

describe("perk links", () => {
  const places = { discordRoleSynced: true, communityUrl: "https://discord.gg/x" };

  it("links each perk a tier adds to its page", () => {
    expect(perkLinks(perksAddedBy("analyst"), places)).toEqual([
      { perk: "monthly_qa", href: "/qa", external: false },
      { perk: "art_votes", href: "/polls", external: false },
    ]);
  });

  it("sends the Discord role to the community invite when roles are not synced, and drops it without one", () => {
    const observer = perksAddedBy("observer");
    expect(perkLinks(observer, { ...places, discordRoleSynced: false })[1]).toEqual({
      perk: "discord_role",
      href: "https://discord.gg/x",
      external: true,
    });
    expect(perkLinks(observer, places)[1]?.href).toBe("/settings#discord");
    expect(perkLinks(observer, { discordRoleSynced: false, communityUrl: null }).map((l) => l.perk)).toEqual([
      "early_access",
    ]);
  });
});
