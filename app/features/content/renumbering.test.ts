import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { moveSchema } from "~/features/chapters/chapter-form";
import { relinked, renumbering } from "./renumbering";

/** The numbers after applying `moves` to `numbers`. */
const after = (numbers: number[], moves: Map<number, number>) =>
  numbers.map((number) => moves.get(number) ?? number);

describe("moving a chapter to another number", () => {
  it("takes a free number and moves nothing else", () => {
    expect(renumbering([1, 2, 3], 2, 7)).toEqual(new Map([[2, 7]]));
  });

  it("moves later: the chapters between step back into the gap", () => {
    expect(renumbering([1, 2, 3, 4, 5], 2, 4)).toEqual(
      new Map([
        [2, 4],
        [3, 2],
        [4, 3],
      ]),
    );
  });

  it("moves earlier: the chapters between step forward", () => {
    expect(renumbering([1, 2, 3, 4, 5], 5, 2)).toEqual(
      new Map([
        [5, 2],
        [2, 3],
        [3, 4],
        [4, 5],
      ]),
    );
  });

  it("leaves a gap where it was when the numbers had one, and nothing moves onto itself", () => {
    expect(after([1, 2, 3, 5, 6], renumbering([1, 2, 3, 5, 6], 1, 5))).toEqual([5, 1, 2, 4, 6]);
    expect(renumbering([1, 2, 3], 2, 2).size).toBe(0);
  });

  it("always ends with distinct numbers, the moved chapter on its new number (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 1, max: 70 }),
        (numbers, pick, to) => {
          const from = numbers[pick % numbers.length] as number;
          const moves = renumbering(numbers, from, to);
          const result = after(numbers, moves);
          expect(new Set(result).size).toBe(numbers.length);
          expect(result[numbers.indexOf(from)]).toBe(to);
          // Only chapters between the two places move, each by one.
          for (const [old, moved] of moves) if (old !== from) expect(Math.abs(moved - old)).toBe(1);
        },
      ),
    );
  });
});

describe("links to moved chapters", () => {
  const moves = new Map([
    [2, 4],
    [4, 3],
  ]);

  it("follow their chapter in Markdown and HTML links, anchors and queries kept", () => {
    expect(relinked("See [the tower](/chapter/2) and [the gate](/chapter/4#p3).", moves)).toBe(
      "See [the tower](/chapter/4) and [the gate](/chapter/3#p3).",
    );
    expect(relinked('<a href="/chapter/2?as=reader">x</a>', moves)).toBe(
      '<a href="/chapter/4?as=reader">x</a>',
    );
  });

  it("leave other numbers, longer numbers and plain text alone", () => {
    const text = "Chapter 2 begins; [x](/chapter/21) [y](/chapter/5) /chapter/2 in prose.";
    expect(relinked(text, moves)).toBe(text);
  });
});

describe("the move form", () => {
  it("takes chapter numbers from 1 to 999,999 only", () => {
    expect(moveSchema.safeParse({ from: "3", to: "999999" }).success).toBe(true);
    for (const to of ["0", "-1", "1000000", "2.5", "x", ""])
      expect(moveSchema.safeParse({ from: "3", to }).success).toBe(false);
  });
});
