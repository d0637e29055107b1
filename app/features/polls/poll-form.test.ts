import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { optionFields, POLL_LIMITS } from "./limits";
import { pollSchema } from "./poll-form";
import { voteSchema } from "./vote-form";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
}

const valid = {
  question: "Which cover for Volume 2?",
  opensLocal: "2026-03-01T12:00",
  closesLocal: "2026-03-08T12:00",
  option0Label: "Ash Market",
  option0Image: "3",
  option1Label: "The Lantern Row",
  option1Image: "4",
};

const POLL_KEYS = new Set([
  "admin.polls.errors.question",
  "admin.polls.errors.plainText",
  "admin.polls.errors.opens",
  "admin.polls.errors.closes",
  "admin.polls.errors.label",
  "admin.polls.errors.image",
  "admin.polls.errors.options",
]);
const FIELDS = new Set([
  "question",
  "opensLocal",
  "closesLocal",
  ...optionFields.flatMap((f) => [f.label, f.image]),
]);

describe("the poll form", () => {
  it("takes a question, its times and the rows filled in, in order", () => {
    const parsed = parseForm(pollSchema, form({ ...valid, option3Label: " Third ", option3Image: "9" }));
    expect(parsed).toEqual({
      ok: true,
      data: {
        question: valid.question,
        opensLocal: valid.opensLocal,
        closesLocal: valid.closesLocal,
        options: [
          { label: "Ash Market", uploadId: 3 },
          { label: "The Lantern Row", uploadId: 4 },
          { label: "Third", uploadId: 9 },
        ],
      },
    });
  });

  it("needs two options, each with both a label and an image", () => {
    const errors = (values: Record<string, string>) => {
      const result = parseForm(pollSchema, form(values));
      return result.ok ? undefined : result.errors;
    };
    expect(errors({ ...valid, option1Label: "", option1Image: "" })).toEqual({
      option0Label: "admin.polls.errors.options",
    });
    expect(errors({ ...valid, option1Image: "" })).toEqual({ option1Image: "admin.polls.errors.image" });
    expect(errors({ ...valid, option2Image: "5" })).toEqual({ option2Label: "admin.polls.errors.label" });
    expect(errors({ ...valid, option0Label: "x".repeat(81) })).toEqual({
      option0Label: "admin.polls.errors.label",
    });
    expect(errors({ ...valid, option0Label: "two\nlines" })).toEqual({
      option0Label: "admin.polls.errors.plainText",
    });
    expect(errors({ ...valid, option0Image: "0" })).toEqual({ option0Image: "admin.polls.errors.image" });
    expect(errors({ ...valid, option0Image: "99999999999" })).toEqual({
      option0Image: "admin.polls.errors.image",
    });
  });

  it("refuses a close time not after the open time, and a question too long", () => {
    const result = parseForm(
      pollSchema,
      form({ ...valid, closesLocal: valid.opensLocal, question: "q".repeat(201) }),
    );
    expect(result).toEqual({
      ok: false,
      errors: { question: "admin.polls.errors.question", closesLocal: "admin.polls.errors.closes" },
    });
  });

  it("never throws and always answers clearly: the data within the limits, or catalogue keys (fuzzed)", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.string({ unit: "grapheme", maxLength: 120 }),
      fc.constantFrom(
        "",
        " ",
        "\u0000",
        "\r\n",
        "1",
        "0",
        "-1",
        "2147483648",
        "2026-02-30T10:00",
        "2026-03-01T12:00",
      ),
      fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
    );
    const keys = fc.constantFrom(...FIELDS, "extra");
    const fields = fc.dictionary(keys, text, { maxKeys: 20 });
    fc.assert(
      fc.property(fields, (values) => {
        const result = parseForm(pollSchema, form({ ...valid, ...values }));
        if (result.ok) {
          const { options, question } = result.data;
          expect(options.length).toBeGreaterThanOrEqual(POLL_LIMITS.minOptions);
          expect(options.length).toBeLessThanOrEqual(POLL_LIMITS.maxOptions);
          expect([...question].length).toBeLessThanOrEqual(POLL_LIMITS.question);
          for (const option of options) {
            expect([...option.label].length).toBeGreaterThan(0);
            expect([...option.label].length).toBeLessThanOrEqual(POLL_LIMITS.label);
            expect(
              Number.isInteger(option.uploadId) && option.uploadId > 0 && option.uploadId < 2 ** 31,
            ).toBe(true);
          }
          expect(result.data.closesLocal > result.data.opensLocal).toBe(true);
        } else {
          for (const [field, key] of Object.entries(result.errors)) {
            expect(FIELDS.has(field), field).toBe(true);
            expect(POLL_KEYS.has(key), key).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("the vote input", () => {
  it("is a poll and an option, each a positive int4; anything else one message (fuzzed)", () => {
    expect(parseForm(voteSchema, form({ poll: "1", option: "2" }))).toEqual({
      ok: true,
      data: { poll: 1, option: 2 },
    });
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer({ min: -10, max: 2 ** 33 }).map(String),
      fc.constantFrom("", "0", "1e3", "0x10", " 7", "2147483647", "2147483648", "\u0000"),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("poll", "option", "other"), value), (values) => {
        const result = parseForm(voteSchema, form(values));
        if (result.ok) {
          for (const id of [result.data.poll, result.data.option]) {
            expect(Number.isInteger(id)).toBe(true);
            expect(id).toBeGreaterThan(0);
            expect(id).toBeLessThanOrEqual(2_147_483_647);
          }
        } else {
          for (const key of Object.values(result.errors)) expect(key).toBe("polls.errors.choice");
        }
      }),
      { numRuns: 500 },
    );
  });
});
