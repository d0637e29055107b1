import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { BETA_LIMITS, betaMarkSchema, feedbackSchema } from "./limits";
import { blockTexts, quoteOf } from "./paragraphs";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

const MESSAGE_KEYS = new Set(["beta.errors.empty", "beta.errors.tooLong", "beta.errors.paragraph"]);

describe("feedbackSchema", () => {
  it("reads a note on the whole chapter, trimmed, its line breaks made \\n", () => {
    expect(parseForm(feedbackSchema, form({ body: "  Lovely.\r\nMore! ", paragraph: "" }))).toEqual({
      ok: true,
      data: { body: "Lovely.\nMore!", paragraph: undefined },
    });
    expect(parseForm(feedbackSchema, form({ body: "Lovely." }))).toEqual({
      ok: true,
      data: { body: "Lovely.", paragraph: undefined },
    });
  });

  it("numbers the paragraph from 1 in the form and from 0 in the text", () => {
    expect(parseForm(feedbackSchema, form({ body: "x", paragraph: "1" }))).toMatchObject({
      ok: true,
      data: { paragraph: 0 },
    });
    expect(
      parseForm(feedbackSchema, form({ body: "x", paragraph: String(BETA_LIMITS.paragraphMax) })),
    ).toMatchObject({ ok: true, data: { paragraph: BETA_LIMITS.paragraphMax - 1 } });
  });

  it("takes exactly the longest note, counted after trimming, and not one character more", () => {
    const longest = "n".repeat(BETA_LIMITS.bodyMax);
    expect(parseForm(feedbackSchema, form({ body: ` ${longest} ` })).ok).toBe(true);
    expect(parseForm(feedbackSchema, form({ body: `${longest}n` }))).toEqual({
      ok: false,
      errors: { body: "beta.errors.tooLong" },
    });
  });

  it.each([
    ["an empty note", { body: "   " }, { body: "beta.errors.empty" }],
    ["no note", {}, { body: "beta.errors.empty" }],
    ["paragraph 0", { body: "x", paragraph: "0" }, { paragraph: "beta.errors.paragraph" }],
    ["a negative paragraph", { body: "x", paragraph: "-3" }, { paragraph: "beta.errors.paragraph" }],
    ["a paragraph too far", { body: "x", paragraph: "10000" }, { paragraph: "beta.errors.paragraph" }],
    ["a fraction", { body: "x", paragraph: "1.5" }, { paragraph: "beta.errors.paragraph" }],
    ["a word", { body: "x", paragraph: "one" }, { paragraph: "beta.errors.paragraph" }],
  ])("refuses %s with its message", (_, values, errors) => {
    expect(parseForm(feedbackSchema, form(values as Record<string, string>))).toEqual({ ok: false, errors });
  });

  it("never throws, and accepts or refuses any form with a known message (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            body: fc.oneof(fc.string({ maxLength: 2100 }), fc.string({ unit: "grapheme", maxLength: 50 })),
            paragraph: fc.oneof(
              fc.integer({ min: -5, max: 20_000 }).map(String),
              fc.string({ maxLength: 12 }),
              fc.constant(""),
            ),
          },
          { requiredKeys: [] },
        ),
        (values) => {
          const result = parseForm(feedbackSchema, form(values));
          if (result.ok) {
            expect(result.data.body.length).toBeGreaterThan(0);
            expect(result.data.body.length).toBeLessThanOrEqual(BETA_LIMITS.bodyMax);
            const { paragraph } = result.data;
            if (paragraph !== undefined) {
              expect(Number.isInteger(paragraph)).toBe(true);
              expect(paragraph).toBeGreaterThanOrEqual(0);
              expect(paragraph).toBeLessThan(BETA_LIMITS.paragraphMax);
            }
          } else {
            for (const message of Object.values(result.errors)) expect(MESSAGE_KEYS).toContain(message);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("betaMarkSchema", () => {
  it("is on only for a ticked box", () => {
    expect(parseForm(betaMarkSchema, form({ betaReaders: "on" }))).toEqual({
      ok: true,
      data: { betaReaders: true },
    });
    expect(parseForm(betaMarkSchema, form({}))).toEqual({ ok: true, data: { betaReaders: false } });
    expect(parseForm(betaMarkSchema, form({ betaReaders: "yes" }))).toEqual({
      ok: true,
      data: { betaReaders: false },
    });
  });
});

describe("blockTexts", () => {
  it("gives each numbered block's words, in order, tags dropped and entities decoded", () => {
    const html =
      '<p id="p-0" data-p="0">One <em>and</em> two.</p>\n<hr id="p-1" data-p="1">\n' +
      '<blockquote id="p-2" data-p="2"><p>Tom &amp; &quot;Jerry&quot;</p></blockquote>\n<p id="p-3" data-p="3">Last.</p>';
    expect(blockTexts(html)).toEqual(["One and two.", "", 'Tom & "Jerry"', "Last."]);
  });

  it("finds no blocks in a text without them", () => {
    expect(blockTexts("")).toEqual([]);
    expect(blockTexts("<p>unnumbered</p>")).toEqual([]);
  });

  it("cuts a long paragraph's quote to the limit, with an ellipsis", () => {
    expect(quoteOf("short")).toBe("short");
    const quote = quoteOf("w".repeat(1000));
    expect(quote).toHaveLength(BETA_LIMITS.quoteMax);
    expect(quote.endsWith("…")).toBe(true);
  });
});
