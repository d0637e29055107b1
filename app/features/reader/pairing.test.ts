import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Pair, pairBlocks } from "./pairing";

/** The rows as `originals|translations` ranges, short to read. */
const rows = (pairs: Pair[]) =>
  pairs.map(({ original, translation }) => `${original.join("-")}|${translation.join("-")}`);

describe("pairing a translation's blocks with the original's (side by side, ADR 97)", () => {
  it("pairs one to one by the map, and without a map by place", () => {
    expect(rows(pairBlocks(3, 3, [1, 2, 3]))).toEqual(["0-1|0-1", "1-2|1-2", "2-3|2-3"]);
    expect(rows(pairBlocks(3, 3, undefined))).toEqual(["0-1|0-1", "1-2|1-2", "2-3|2-3"]);
    expect(rows(pairBlocks(3, 3, null))).toEqual(["0-1|0-1", "1-2|1-2", "2-3|2-3"]);
  });

  it("puts a translated paragraph beside the two originals it renders", () => {
    // The first translated block renders originals 1 and 2 (no block names 2).
    expect(rows(pairBlocks(3, 2, [1, 3]))).toEqual(["0-2|0-1", "2-3|1-2"]);
    // The last one renders the original's last two.
    expect(rows(pairBlocks(4, 3, [1, 2, 3]))).toEqual(["0-1|0-1", "1-2|1-2", "2-4|2-3"]);
  });

  it("puts two translated paragraphs beside the one original they render", () => {
    expect(rows(pairBlocks(2, 3, [1, 1, 2]))).toEqual(["0-1|0-2", "1-2|2-3"]);
  });

  it("takes the original after the previous block's for a missing, broken or out-of-range entry", () => {
    expect(rows(pairBlocks(3, 3, [1]))).toEqual(["0-1|0-1", "1-2|1-2", "2-3|2-3"]);
    expect(rows(pairBlocks(3, 3, [1, "2", 3]))).toEqual(["0-1|0-1", "1-2|1-2", "2-3|2-3"]);
    expect(rows(pairBlocks(3, 3, [1, 0, 99]))).toEqual(["0-1|0-1", "1-2|1-2", "2-3|2-3"]);
    expect(rows(pairBlocks(3, 3, [1.5, 2.5, 3]))).toEqual(["0-1|0-1", "1-2|1-2", "2-3|2-3"]);
    expect(rows(pairBlocks(4, 3, [1, 3]))).toEqual(["0-2|0-1", "2-3|1-2", "3-4|2-3"]);
  });

  it("keeps both texts in order when the map goes back", () => {
    expect(rows(pairBlocks(3, 3, [2, 1, 3]))).toEqual(["0-1|0-0", "1-2|0-2", "2-3|2-3"]);
  });

  it("gives originals before the first named one a row of their own", () => {
    expect(rows(pairBlocks(4, 2, [3, 4]))).toEqual(["0-2|0-0", "2-3|0-1", "3-4|1-2"]);
  });

  it("puts translated paragraphs past the originals with the last original", () => {
    expect(rows(pairBlocks(2, 4, undefined))).toEqual(["0-1|0-1", "1-2|1-4"]);
    expect(rows(pairBlocks(2, 4, [1, 2]))).toEqual(["0-1|0-1", "1-2|1-4"]);
  });

  it("handles empty texts", () => {
    expect(pairBlocks(0, 0, undefined)).toEqual([]);
    expect(rows(pairBlocks(0, 2, [1, 2]))).toEqual(["0-0|0-2"]);
    expect(rows(pairBlocks(3, 0, []))).toEqual(["0-3|0-0"]);
  });

  it("places every block of both texts once, in order, whatever the map (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.nat(40),
        fc.nat(40),
        fc.option(
          fc.array(fc.oneof(fc.integer({ min: -3, max: 45 }), fc.double(), fc.string()), { maxLength: 50 }),
        ),
        (originals, translated, map) => {
          const pairs = pairBlocks(originals, translated, map);
          const flat = (side: "original" | "translation") =>
            pairs.flatMap((pair) => {
              const [from, to] = pair[side];
              expect(from).toBeLessThanOrEqual(to);
              return Array.from({ length: to - from }, (_, index) => from + index);
            });
          expect(flat("original")).toEqual(Array.from({ length: originals }, (_, index) => index));
          expect(flat("translation")).toEqual(Array.from({ length: translated }, (_, index) => index));
          // A row is never empty on both sides.
          for (const { original, translation } of pairs)
            expect(original[1] - original[0] + translation[1] - translation[0]).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
