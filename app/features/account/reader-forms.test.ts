import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { READER_LIMITS, readerActionSchema } from "./reader-forms";

const coins = (delta: string) =>
  readerActionSchema.safeParse({ intent: "coins", delta, note: "a gift", confirm: "on" });

describe("the coin adjustment", () => {
  it.each([
    ["5", 5],
    ["-5", -5],
    ["+100000", 100_000],
  ])("takes %j as %d", (delta, expected) => {
    const parsed = coins(delta);
    expect(parsed.success && parsed.data.intent === "coins" && parsed.data.delta).toBe(expected);
  });

  it.each(["1e3", "1E3", "0x10", " 5", "5 ", "5.0", "0", "100001", "", "1,000"])(
    "refuses %j beside its field",
    (delta) => {
      const parsed = coins(delta);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({
        path: ["delta"],
        message: "admin.reader.errors.delta",
      });
    },
  );

  it("accepts only digits within the limit, and answers anything with a value or the field's message (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 20 }), fc.double().map(String), fc.integer().map(String)),
        (delta) => {
          const parsed = coins(delta);
          if (parsed.success) {
            expect(delta).toMatch(/^[+-]?\d+$/);
            const value = parsed.data.intent === "coins" ? parsed.data.delta : Number.NaN;
            expect(Math.abs(value)).toBeLessThanOrEqual(READER_LIMITS.coins);
            expect(value).toBe(Number(delta));
          } else expect(parsed.error.issues[0]?.message).toBe("admin.reader.errors.delta");
        },
      ),
      { numRuns: 1000 },
    );
  });
});
