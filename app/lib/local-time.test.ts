import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { instantAt, localDateTime } from "./local-time";

describe("instantAt", () => {
  it("gives the instant a wall clock shows, across zones and a daylight-saving change", () => {
    expect(instantAt("2026-11-27T09:30", "Asia/Tokyo").toISOString()).toBe("2026-11-27T00:30:00.000Z");
    expect(instantAt("2026-07-01T12:00", "America/New_York").toISOString()).toBe("2026-07-01T16:00:00.000Z");
    expect(instantAt("2026-12-01T12:00", "America/New_York").toISOString()).toBe("2026-12-01T17:00:00.000Z");
    // 02:30 does not exist on 8 March 2026 in New York: an hour later.
    expect(localDateTime(instantAt("2026-03-08T02:30", "America/New_York"), "America/New_York")).toBe(
      "2026-03-08 03:30:00",
    );
  });

  it("is the inverse of localDateTime for any instant and zone (at minute precision)", () => {
    const zones = fc.constantFrom(
      "UTC",
      "Asia/Tokyo",
      "America/New_York",
      "Europe/Paris",
      "Australia/Lord_Howe",
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000 }), zones, (minutes, zone) => {
        const instant = new Date(minutes * 60_000);
        const wall = localDateTime(instant, zone).replace(" ", "T").slice(0, 16);
        // An hour repeated at the end of summer time has two instants: either is that wall time.
        expect(localDateTime(instantAt(wall, zone), zone).slice(0, 16)).toBe(wall.replace("T", " "));
      }),
      { numRuns: 300 },
    );
  });
});
