import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chapterSchema as contentChapterSchema } from "~/features/content/schemas";
import { parseForm } from "~/lib/forms";
import { CHAPTER_LIMITS, chapterSchema } from "./chapter-form";

/** A valid chapter form, with the notes given. */
const form = (notes: Record<string, string>) => {
  const data = new FormData();
  const fields = {
    title: "A chapter",
    volume: "1",
    bodyMd: "Text.",
    status: "draft",
    releaseLocal: "2026-11-28T10:00",
    coinsRequired: "0",
    ...notes,
  };
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

describe("the author's notes in the chapter form (ADR 95)", () => {
  it("keeps a note's Markdown, trimmed, its line ends made \\n; an empty or absent note is none", () => {
    const parsed = parseForm(
      chapterSchema,
      form({ noteBefore: "  *Thanks* for reading!\r\n\r\nMore.  ", noteAfter: " \n " }),
    );
    expect(parsed).toMatchObject({
      ok: true,
      data: { noteBefore: "*Thanks* for reading!\n\nMore.", noteAfter: null },
    });
    expect(parseForm(chapterSchema, form({}))).toMatchObject({
      ok: true,
      data: { noteBefore: null, noteAfter: null },
    });
  });

  it("takes 10,000 characters and refuses one more, with the translated message", () => {
    expect(CHAPTER_LIMITS.note).toBe(10_000);
    // Counted as characters: 10,000 emoji (20,000 UTF-16 units) are within the limit.
    for (const note of ["a".repeat(10_000), "🦇".repeat(10_000)])
      expect(parseForm(chapterSchema, form({ noteAfter: note })).ok).toBe(true);
    expect(parseForm(chapterSchema, form({ noteAfter: "a".repeat(10_001) }))).toEqual({
      ok: false,
      errors: { noteAfter: "admin.chapter.errors.noteLong" },
    });
    expect(parseForm(chapterSchema, form({ noteBefore: "🦇".repeat(10_001) }))).toMatchObject({
      ok: false,
      errors: { noteBefore: "admin.chapter.errors.noteLong" },
    });
  });

  it("the content folder takes what the form takes, and refuses more", () => {
    const front = {
      number: 1,
      title: "A chapter",
      volume: 1,
      releaseAt: "2026-11-28",
    };
    expect(contentChapterSchema.parse({ ...front, noteBefore: "🦇".repeat(10_000) }).noteBefore).toHaveLength(
      20_000,
    );
    expect(contentChapterSchema.safeParse({ ...front, noteAfter: "a".repeat(10_001) }).success).toBe(false);
    expect(contentChapterSchema.safeParse({ ...front, noteAfter: 12 }).success).toBe(false);
  });

  it("never throws, and accepts a note within the limit or refuses it with the message (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: "grapheme", maxLength: 50 }),
          fc.string({ minLength: 9_990, maxLength: 10_010, unit: "binary" }),
        ),
        fc.constantFrom("noteBefore", "noteAfter"),
        (note, name) => {
          const result = parseForm(chapterSchema, form({ [name]: note }));
          const expected = note.replace(/\r\n?/g, "\n").trim();
          if (result.ok) {
            const kept = result.data[name as "noteBefore" | "noteAfter"];
            expect(kept).toBe(expected === "" ? null : expected);
            expect([...(kept ?? "")].length).toBeLessThanOrEqual(CHAPTER_LIMITS.note);
          } else {
            expect(result.errors).toEqual({ [name]: "admin.chapter.errors.noteLong" });
            expect([...expected].length).toBeGreaterThan(CHAPTER_LIMITS.note);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
