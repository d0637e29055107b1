import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INT32_MAX, isCleanText, parseId, parseTimestamp, parseWholeNumber } from "./parse";

describe("parseId", () => {
  it.each([
    ["1", 1],
    [1, 1],
    ["2147483647", INT32_MAX],
  ])("accepts %s", (input, expected) => {
    expect(parseId(input)).toBe(expected);
  });

  it.each([
    "0",
    "-1",
    "2147483648",
    "99999999999",
    "1.5",
    "1e3",
    " 1",
    "0x10",
    "",
    "\u0000",
    0,
    2 ** 31,
    1.5,
    NaN,
    null,
  ])("refuses %s", (input) => {
    expect(parseId(input)).toBeUndefined();
  });

  it("gives only positive int4 values for any input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double(), fc.integer(), fc.bigInt().map(String)), (input) => {
        const id = parseId(input);
        return id === undefined || (Number.isInteger(id) && id >= 1 && id <= INT32_MAX);
      }),
    );
  });
});

describe("parseWholeNumber", () => {
  it.each([
    ["5", 5],
    ["+5", 5],
    ["-5", -5],
    ["007", 7],
    ["-0", 0],
    ["1000", 1000],
    [42, 42],
  ])("accepts %j", (input, expected) => {
    expect(parseWholeNumber(input, -1000, 1000)).toBe(expected);
  });

  it.each([
    "1e3",
    "0x10",
    "0b1",
    "0o7",
    " 5",
    "5 ",
    "5.0",
    "5.",
    ".5",
    "1_000",
    "1,000",
    "",
    "+",
    "-",
    "--5",
    "+-5",
    "٥",
    "Infinity",
    "NaN",
    "\u00005",
    "1001",
    "-1001",
    5.5,
    NaN,
    Infinity,
    null,
    true,
    [5],
  ])("refuses %j", (input) => {
    expect(parseWholeNumber(input, -1000, 1000)).toBeUndefined();
  });

  it("takes exactly what an optional sign and digits say, within the range (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.integer().map(String),
          fc.bigInt().map(String),
          fc.double().map(String),
          fc.stringMatching(/^[+-]?\d{1,20}$/),
        ),
        (input) => {
          const number = parseWholeNumber(input, -100_000, 100_000);
          const digits = /^[+-]?\d{1,15}$/.test(input);
          if (!digits) return number === undefined;
          const expected = Number(input);
          return expected >= -100_000 && expected <= 100_000
            ? number === expected || (number === 0 && expected === 0)
            : number === undefined;
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("isCleanText", () => {
  it("accepts text with line breaks up to the limit", () => {
    expect(isCleanText("a\tb\nc\r", 10)).toBe(true);
    expect(isCleanText("é".repeat(10), 10)).toBe(true);
  });
  it.each(["a\u0000b", "\u0007", "\u007f", "x".repeat(11)])("refuses %j", (input) => {
    expect(isCleanText(input, 10)).toBe(false);
  });
});

describe("parseTimestamp", () => {
  it("normalises a date in range", () => {
    expect(parseTimestamp("2026-11-25T10:00:00+01:00")).toBe("2026-11-25T09:00:00.000Z");
    expect(parseTimestamp(new Date(0).toISOString())).toBe("1970-01-01T00:00:00.000Z");
  });
  it.each([
    "+275760-09-13T00:00:00Z",
    "-004714-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "2100-01-01T00:00:00.001Z",
    "1969-12-31T23:59:59Z",
    "not a date",
    "",
    "2026-11-25T00:00:00Z".padEnd(41, " "),
  ])("refuses %s", (input) => {
    expect(parseTimestamp(input)).toBeUndefined();
  });

  it("never passes on what surrounded the date (a NUL byte): the result is a fresh ISO string", () => {
    expect(parseTimestamp("2026-11-25\u0000")).toBe("2026-11-25T00:00:00.000Z");
  });
});
