import { describe, expect, it } from "vitest";
import { canonicalTimeZone, preferencesFromCookies } from "./preferences.server";

describe("time zones", () => {
  it.each([
    ["Europe/Paris", "Europe/Paris"],
    ["europe/paris", "Europe/Paris"],
    ["EUROPE/PARIS", "Europe/Paris"],
    ["eUrOpE/pArIs", "Europe/Paris"],
    ["US/Eastern", "America/New_York"],
    ["utc", "UTC"],
    ["Not/A_Zone", undefined],
    ["", undefined],
    [`Europe/${"x".repeat(80)}`, undefined],
  ])("%j is the zone %j", (spelling, zone) => {
    expect(canonicalTimeZone(spelling)).toBe(zone);
    // Asked again (now from the map), the same answer.
    expect(canonicalTimeZone(spelling)).toBe(zone);
  });

  it("renders a page in the zone its key names, whatever the cookie's spelling", () => {
    const cookies = new Map([["tz", "aSiA/tOkYo"]]);
    expect(preferencesFromCookies(cookies, undefined).timeZone).toBe("Asia/Tokyo");
    expect(preferencesFromCookies(new Map([["tz", "Nowhere/City"]]), undefined).timeZone).toBe("UTC");
  });

  it("stays right past the bound of remembered spellings", () => {
    for (let i = 0; i < 5000; i++) canonicalTimeZone(`Invented/Zone_${i}`);
    expect(canonicalTimeZone("EUROPE/berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("Invented/Zone_4999")).toBeUndefined();
  });
});
