import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { INQUIRY_LIMITS, inquirySchema } from "./schema";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

const valid = {
  name: "Ilse Marrow",
  email: "ilse@example.com",
  message: "Could you draw Aurelian on the archive roof?",
};

const MESSAGE_KEYS = new Set([
  "inquiry.errors.nameRequired",
  "inquiry.errors.nameTooLong",
  "inquiry.errors.nameChars",
  "validation.email",
  "inquiry.errors.messageTooShort",
  "inquiry.errors.messageTooLong",
]);

describe("inquirySchema", () => {
  it("accepts a valid inquiry, trimmed, with its line breaks made \\n", () => {
    const result = parseForm(
      inquirySchema,
      form({ name: "  Ilse  ", email: " ilse@example.com ", message: `  ${valid.message}\r\nThanks!\r\n ` }),
    );
    expect(result).toEqual({
      ok: true,
      data: { name: "Ilse", email: "ilse@example.com", message: `${valid.message}\nThanks!` },
    });
  });

  it("takes exactly the limits, counted after trimming", () => {
    const edge = {
      name: "n".repeat(INQUIRY_LIMITS.name),
      email: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`,
      message: ` ${"m".repeat(INQUIRY_LIMITS.messageMax)} `,
    };
    expect(edge.email).toHaveLength(INQUIRY_LIMITS.email);
    expect(parseForm(inquirySchema, form(edge)).ok).toBe(true);
    expect(parseForm(inquirySchema, form({ ...valid, message: `  ${"m".repeat(20)}  ` })).ok).toBe(true);
  });

  it.each([
    [{ name: "" }, "name", "inquiry.errors.nameRequired"],
    [{ name: "   " }, "name", "inquiry.errors.nameRequired"],
    [{ name: "n".repeat(101) }, "name", "inquiry.errors.nameTooLong"],
    [{ name: "Ilse\nBcc: x@y.z" }, "name", "inquiry.errors.nameChars"],
    [{ name: "Ilse\u0000" }, "name", "inquiry.errors.nameChars"],
    [{ email: "" }, "email", "validation.email"],
    [{ email: "not-an-email" }, "email", "validation.email"],
    [{ email: "a@b.c\nBcc: x@y.z" }, "email", "validation.email"],
    [{ email: `${"a".repeat(250)}@b.com` }, "email", "validation.email"],
    [{ message: "too short" }, "message", "inquiry.errors.messageTooShort"],
    [{ message: ` ${"m".repeat(19)}    ` }, "message", "inquiry.errors.messageTooShort"],
    [{ message: "m".repeat(2_001) }, "message", "inquiry.errors.messageTooLong"],
  ])("%j gives %s: %s", (change, field, message) => {
    const result = parseForm(inquirySchema, form({ ...valid, ...change }));
    expect(result).toEqual({ ok: false, errors: { [field]: message } });
  });

  it("names every missing field with its own message", () => {
    expect(parseForm(inquirySchema, form({}))).toEqual({
      ok: false,
      errors: {
        name: "inquiry.errors.nameRequired",
        email: "validation.email",
        message: "inquiry.errors.messageTooShort",
      },
    });
  });

  it("never throws and always answers clearly: the data within the limits, or catalogue keys (fuzzed)", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 3_000 }),
      fc.string({ unit: "grapheme", maxLength: 300 }),
      fc.emailAddress(),
      fc.constantFrom("", " ", "\u0000", "\r\n", "@", "a@b", "😀".repeat(1_001), "x".repeat(100_000)),
    );
    const fields = fc.record({ name: text, email: text, message: text, extra: text }, { requiredKeys: [] });
    fc.assert(
      fc.property(fields, (values) => {
        const result = parseForm(inquirySchema, form(values));
        if (result.ok) {
          // Limits count characters (code points), as zod's string lengths do: 1,001 emoji are 1,001.
          const length = (value: string) => [...value].length;
          expect(length(result.data.name)).toBeGreaterThan(0);
          expect(length(result.data.name)).toBeLessThanOrEqual(INQUIRY_LIMITS.name);
          expect(length(result.data.email)).toBeLessThanOrEqual(INQUIRY_LIMITS.email);
          expect(result.data.email).not.toMatch(/\s/);
          expect(length(result.data.message)).toBeGreaterThanOrEqual(INQUIRY_LIMITS.messageMin);
          expect(length(result.data.message)).toBeLessThanOrEqual(INQUIRY_LIMITS.messageMax);
          expect(Object.keys(result.data).sort()).toEqual(["email", "message", "name"]);
        } else {
          expect(Object.keys(result.errors).length).toBeGreaterThan(0);
          for (const [field, key] of Object.entries(result.errors)) {
            expect(["name", "email", "message"]).toContain(field);
            expect(MESSAGE_KEYS.has(key), key).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
