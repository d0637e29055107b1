import { describe, expect, it } from "vitest";
import { continueTarget } from "./continue";

describe("continueTarget", () => {
  it("is the latest unfinished chapter, or the one after the latest finished", () => {
    expect(continueTarget({}, [1, 2, 3])).toBeUndefined();
    expect(
      continueTarget({ 2: { completed: false, percent: 40, lastReadAt: "2026-11-02" } }, [1, 2, 3]),
    ).toBe(2);
    expect(
      continueTarget(
        {
          1: { completed: true, percent: 100, lastReadAt: "2026-11-01" },
          2: { completed: true, percent: 100, lastReadAt: "2026-11-03" },
        },
        [1, 2, 3],
      ),
    ).toBe(3);
    expect(
      continueTarget({ 3: { completed: true, percent: 100, lastReadAt: "2026-11-03" } }, [1, 2, 3]),
    ).toBeUndefined();
  });
});
