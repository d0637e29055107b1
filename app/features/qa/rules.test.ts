import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import {
  answerSchema,
  isMonthKey,
  mayAsk,
  monthKeyAt,
  monthSchema,
  QA_LIMITS,
  questionSchema,
} from "./rules";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

const length = (value: string) => [...value].length;

/** Any text a browser or a script may post: long, empty, control characters, astral characters. */
const text = fc.oneof(
  fc.string({ maxLength: 1_500 }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\r\n",
    "on",
    "true",
    "0",
    "-1",
    "1e3",
    "😀".repeat(1_001),
    "x".repeat(20_000),
  ),
);

describe("monthKeyAt", () => {
  it("names the calendar month of the site's time zone, across the UTC midnight and daylight-saving changes", () => {
    expect(monthKeyAt(new Date("2026-12-01T03:00:00Z"), "America/New_York")).toBe("2026-11");
    expect(monthKeyAt(new Date("2026-12-01T05:00:00Z"), "America/New_York")).toBe("2026-12");
    expect(monthKeyAt(new Date("2026-11-30T15:00:00Z"), "Asia/Tokyo")).toBe("2026-12");
    expect(monthKeyAt(new Date("2026-12-31T23:59:59Z"), "UTC")).toBe("2026-12");
    expect(monthKeyAt(new Date("2027-01-01T00:00:00Z"), "UTC")).toBe("2027-01");
    // New York changes to summer time on 8 March 2026; the month still turns at local midnight on 1 April.
    expect(monthKeyAt(new Date("2026-04-01T03:59:00Z"), "America/New_York")).toBe("2026-03");
    expect(monthKeyAt(new Date("2026-04-01T04:00:00Z"), "America/New_York")).toBe("2026-04");
  });

  it("makes keys isMonthKey accepts, and isMonthKey refuses anything else", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1971-01-01"), max: new Date("2099-12-01"), noInvalidDate: true }),
        (at) => {
          expect(isMonthKey(monthKeyAt(at, "Europe/Paris"))).toBe(true);
        },
      ),
    );
    for (const bad of ["2026-13", "2026-00", "2026-1", "26-11", "2026-11 ", "2026/11", "", "2026-11-01"])
      expect(isMonthKey(bad)).toBe(false);
  });
});

describe("mayAsk", () => {
  it("is the monthly Q&A perk: Analyst and First Human, not free or Observer", () => {
    expect(["free", "observer", "analyst", "first_human"].map((tier) => mayAsk(tier as never))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});

describe("questionSchema", () => {
  it("takes 10 to 1,000 characters after trimming, line breaks as \\n, and the anonymous box", () => {
    expect(
      parseForm(questionSchema, form({ question: `  ${"q".repeat(10)}\r\n `, anonymous: "on" })),
    ).toEqual({
      ok: true,
      data: { question: "q".repeat(10), anonymous: true },
    });
    expect(parseForm(questionSchema, form({ question: "q".repeat(QA_LIMITS.questionMax) })).ok).toBe(true);
    expect(parseForm(questionSchema, form({ question: "q".repeat(9) }))).toEqual({
      ok: false,
      errors: { question: "qa.errors.tooShort" },
    });
    expect(parseForm(questionSchema, form({ question: "q".repeat(1_001) }))).toEqual({
      ok: false,
      errors: { question: "qa.errors.tooLong" },
    });
  });

  it("never throws: the question within its limits, or one of its messages (fuzzed)", () => {
    fc.assert(
      fc.property(
        fc.record({ question: text, anonymous: text, extra: text }, { requiredKeys: [] }),
        (values) => {
          const result = parseForm(questionSchema, form(values));
          if (result.ok) {
            expect(length(result.data.question)).toBeGreaterThanOrEqual(QA_LIMITS.questionMin);
            expect(length(result.data.question)).toBeLessThanOrEqual(QA_LIMITS.questionMax);
            expect(result.data.question).not.toMatch(/\r/);
            expect(typeof result.data.anonymous).toBe("boolean");
          } else {
            expect(Object.keys(result.errors)).toEqual(["question"]);
            expect(["qa.errors.tooShort", "qa.errors.tooLong"]).toContain(result.errors.question);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("the admin's answer and month forms", () => {
  it("never throw: valid data within the limits, or the admin's messages (fuzzed)", () => {
    const id = fc.oneof(
      text,
      fc.integer().map(String),
      fc.constantFrom("1", "2147483647", "2147483648", "1.5"),
    );
    fc.assert(
      fc.property(
        fc.record({
          intent: fc.oneof(text, fc.constantFrom("answer", "save", "publish")),
          question: id,
          answer: text,
        }),
        (values) => {
          const result = parseForm(answerSchema, form(values));
          if (result.ok) {
            expect(Number.isInteger(result.data.question)).toBe(true);
            expect(result.data.question).toBeGreaterThan(0);
            expect(result.data.question).toBeLessThanOrEqual(2_147_483_647);
            expect(length(result.data.answer)).toBeLessThanOrEqual(QA_LIMITS.answer);
          } else for (const key of Object.values(result.errors)) expect(key).toMatch(/^admin\.qa\.errors\./);
        },
      ),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(
        fc.record({
          intent: fc.oneof(text, fc.constantFrom("save", "publish")),
          title: text,
          intro: text,
          visibility: fc.oneof(text, fc.constantFrom("members", "everyone")),
        }),
        (values) => {
          const result = parseForm(monthSchema, form(values));
          if (result.ok) {
            expect(length(result.data.title)).toBeGreaterThan(0);
            expect(length(result.data.title)).toBeLessThanOrEqual(QA_LIMITS.title);
            expect(result.data.title).not.toMatch(/\p{Cc}/u);
            expect(length(result.data.intro)).toBeLessThanOrEqual(QA_LIMITS.intro);
          } else for (const key of Object.values(result.errors)) expect(key).toMatch(/^admin\.qa\.errors\./);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("refuses an answer past 10,000 characters and a question id that is not a positive int4", () => {
    expect(parseForm(answerSchema, form({ intent: "answer", question: "7", answer: "" }))).toEqual({
      ok: true,
      data: { intent: "answer", question: 7, answer: "" },
    });
    for (const question of ["0", "-1", "2147483648", "1.5", "x", ""])
      expect(parseForm(answerSchema, form({ intent: "answer", question, answer: "Yes." })).ok).toBe(false);
    expect(
      parseForm(answerSchema, form({ intent: "answer", question: "1", answer: "a".repeat(10_001) })),
    ).toEqual({
      ok: false,
      errors: { answer: "admin.qa.errors.answerTooLong" },
    });
  });
});
