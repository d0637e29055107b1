import { describe, expect, it } from "vitest";
import { perkTier } from "~/features/membership/perks";
import { percentages, pollPhase, resultsVisible, voteRefusal } from "./rules";

const opensAt = new Date("2026-03-01T12:00:00Z");
const closesAt = new Date("2026-03-08T12:00:00Z");
const at = (iso: string) => new Date(iso);

describe("a poll's phase", () => {
  it("opens at its open time (included) and closes at its close time (excluded)", () => {
    expect(pollPhase({ opensAt, closesAt }, at("2026-03-01T11:59:59.999Z"))).toBe("upcoming");
    expect(pollPhase({ opensAt, closesAt }, opensAt)).toBe("open");
    expect(pollPhase({ opensAt, closesAt }, at("2026-03-08T11:59:59.999Z"))).toBe("open");
    expect(pollPhase({ opensAt, closesAt }, closesAt)).toBe("closed");
  });
});

describe("who may vote", () => {
  it("is the art_votes perk's tier and above, while the poll is open", () => {
    expect(perkTier.art_votes).toBe("analyst");
    expect(voteRefusal("analyst", "open")).toBeUndefined();
    expect(voteRefusal("first_human", "open")).toBeUndefined();
    expect(voteRefusal("observer", "open")).toBe("tier");
    expect(voteRefusal("free", "open")).toBe("tier");
    expect(voteRefusal(undefined, "open")).toBe("signIn");
  });

  it("is no one before it opens or after it closes", () => {
    expect(voteRefusal("first_human", "upcoming")).toBe("notOpen");
    expect(voteRefusal("first_human", "closed")).toBe("closed");
    expect(voteRefusal(undefined, "closed")).toBe("closed");
  });
});

describe("who sees the results", () => {
  it("is a reader who voted, and everyone once the poll closed", () => {
    expect(resultsVisible("open", false)).toBe(false);
    expect(resultsVisible("open", true)).toBe(true);
    expect(resultsVisible("closed", false)).toBe(true);
  });
});

describe("the shares", () => {
  it("are whole percents that add up to 100 (largest remainders), 0 with no vote", () => {
    expect(percentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(percentages([2, 1])).toEqual([67, 33]);
    expect(percentages([0, 0])).toEqual([0, 0]);
    expect(percentages([5, 0, 0])).toEqual([100, 0, 0]);
    for (const counts of [
      [7, 3, 1, 1],
      [1, 2, 3, 4, 5, 6, 7, 8],
      [999, 1],
    ])
      expect(percentages(counts).reduce((sum, value) => sum + value, 0)).toBe(100);
  });
});
