import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { clockSchema, MAX_READING_MOVE_SECONDS } from "./clock-form";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("the test clock's forms (ADR 105)", () => {
  it("takes a reader's e-mail and whole seconds from 1 to an hour", () => {
    const parsed = parseForm(
      clockSchema,
      form({ intent: "reading", readerEmail: " Ilse@Example.com ", seconds: "60" }),
    );
    expect(parsed).toEqual({
      ok: true,
      data: { intent: "reading", readerEmail: "Ilse@Example.com", seconds: 60 },
    });
    for (const seconds of ["0", "-1", "3601", "1.5", "1e3", "", "x", "9".repeat(400)])
      expect(
        parseForm(clockSchema, form({ intent: "reading", readerEmail: "a@b.c", seconds })).ok,
        seconds,
      ).toBe(false);
    for (const readerEmail of ["", "   ", "x".repeat(255)])
      expect(parseForm(clockSchema, form({ intent: "reading", readerEmail, seconds: "1" })).ok).toBe(false);
  });

  it("never throws, and what it accepts is within its bounds (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("intent", "readerEmail", "seconds", "releaseLocal"),
          fc.oneof(
            fc.constantFrom("reading", "set", "reset", "3600", "1", "2099-12-31T23:59:59"),
            fc.string({ maxLength: 300 }),
          ),
        ),
        (fields) => {
          const parsed = parseForm(clockSchema, form(fields));
          if (parsed.ok && parsed.data.intent === "reading") {
            expect(Number.isInteger(parsed.data.seconds)).toBe(true);
            expect(parsed.data.seconds).toBeGreaterThanOrEqual(1);
            expect(parsed.data.seconds).toBeLessThanOrEqual(MAX_READING_MOVE_SECONDS);
            expect(parsed.data.readerEmail.length).toBeGreaterThan(0);
            expect(parsed.data.readerEmail.length).toBeLessThanOrEqual(254);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
