import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { inquiryFilterSchema, inquiryStatusSchema, inquiryViews } from "./admin-form";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

describe("the admin's inquiry forms", () => {
  it("takes an inquiry's id and a known status, nothing else", () => {
    expect(parseForm(inquiryStatusSchema, form({ inquiry: "12", status: "answered" }))).toEqual({
      ok: true,
      data: { inquiry: 12, status: "answered" },
    });
    const bad: Record<string, string>[] = [
      { inquiry: "0", status: "answered" },
      { inquiry: "2147483648", status: "new" },
      { inquiry: "1.5", status: "new" },
      { inquiry: "12", status: "deleted" },
      { inquiry: "12" },
    ];
    for (const values of bad) expect(parseForm(inquiryStatusSchema, form(values)).ok).toBe(false);
  });

  it("reads any list URL as a view and an optional page mark, never throwing (fuzz)", () => {
    const value = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom("new", "answered", "all", "0", "-3", "99"),
    );
    fc.assert(
      fc.property(fc.record({ view: value, before: value }, { requiredKeys: [] }), (params) => {
        const filter = inquiryFilterSchema.parse(params);
        expect(inquiryViews).toContain(filter.view);
        if (filter.before !== undefined) {
          expect(Number.isInteger(filter.before)).toBe(true);
          expect(filter.before).toBeGreaterThanOrEqual(1);
          expect(filter.before).toBeLessThanOrEqual(2_147_483_647);
        }
      }),
      { numRuns: 300 },
    );
  });
});
