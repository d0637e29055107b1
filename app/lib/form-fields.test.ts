import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localMinuteField, localSecondField } from "./form-fields";

const error = "admin.clock.errors.time";

describe("local date-time fields", () => {
  it("take a minute, or (the clock's) a second, and nothing that is not a real instant", () => {
    const minute = localMinuteField(error);
    const second = localSecondField(error);
    expect(minute.safeParse("2098-12-31T23:59").success).toBe(true);
    expect(minute.safeParse("2098-12-31T23:59:55").success).toBe(false);
    expect(second.safeParse("2098-12-31T23:59").success).toBe(true);
    expect(second.safeParse("2098-12-31T23:59:55").success).toBe(true);
    for (const wrong of [
      "2098-12-31T23:59:60",
      "2098-02-30T10:00:00",
      "1969-12-31T23:59:59",
      "2200-01-01T00:00",
    ])
      expect(second.safeParse(wrong).success, wrong).toBe(false);
  });

  it("answers any string with a value or the field's message, never a throw (fuzz)", () => {
    const second = localSecondField(error);
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (value) => {
        const parsed = second.safeParse(value);
        if (parsed.success) expect(parsed.data).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/);
        else expect(parsed.error.issues[0]?.message).toBe(error);
      }),
      { numRuns: 500 },
    );
  });
});
