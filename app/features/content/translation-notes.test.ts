import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHAPTER_LIMITS } from "~/features/chapters/chapter-form";
import { parseForm } from "~/lib/forms";
import { chapterTranslationSchema } from "./translation-form";
import { translationSchemas } from "./translation-schemas";

/** A valid translation form, with the notes given. */
const form = (notes: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries({ title: "La puerta", bodyMd: "Texto.", ...notes }))
    data.set(key, value);
  return data;
};

/** A chapter translation file's front matter, with the notes given. */
const front = (notes: Record<string, unknown>) =>
  translationSchemas.chapter.safeParse({ title: "La puerta", ...notes });

describe("a translation's author's notes (ADR 100)", () => {
  it("keeps a note's Markdown, trimmed, its line ends made \\n; an empty or absent note is none", () => {
    expect(
      parseForm(
        chapterTranslationSchema,
        form({ noteBefore: "  *Gracias*\r\n\r\nMás.  ", noteAfter: " \n " }),
      ),
    ).toMatchObject({ ok: true, data: { noteBefore: "*Gracias*\n\nMás.", noteAfter: null } });
    expect(parseForm(chapterTranslationSchema, form({}))).toMatchObject({
      ok: true,
      data: { noteBefore: null, noteAfter: null },
    });
  });

  it("takes 10,000 characters as the original's note does, and refuses one more with the form's message", () => {
    expect(CHAPTER_LIMITS.note).toBe(10_000);
    for (const note of ["a".repeat(10_000), "🦇".repeat(10_000), "訳".repeat(10_000)])
      expect(parseForm(chapterTranslationSchema, form({ noteAfter: note })).ok).toBe(true);
    expect(parseForm(chapterTranslationSchema, form({ noteAfter: "a".repeat(10_001) }))).toEqual({
      ok: false,
      errors: { noteAfter: "admin.translation.errors.noteLong" },
    });
    expect(parseForm(chapterTranslationSchema, form({ noteBefore: "🦇".repeat(10_001) }))).toMatchObject({
      ok: false,
      errors: { noteBefore: "admin.translation.errors.noteLong" },
    });
  });

  it("the content folder takes what the form takes, and refuses more or other than text", () => {
    expect(front({ noteBefore: "🦇".repeat(10_000) }).data?.noteBefore).toHaveLength(20_000);
    expect(front({ noteBefore: "  Nota.  " }).data?.noteBefore).toBe("Nota.");
    expect(front({ noteAfter: "a".repeat(10_001) }).success).toBe(false);
    expect(front({ noteAfter: 12 }).success).toBe(false);
    expect(front({ noteAfter: ["a"] }).success).toBe(false);
  });

  it("never throws, and keeps a note within the limit or refuses it with the message (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: "grapheme", maxLength: 50 }),
          fc.string({ minLength: 9_990, maxLength: 10_010, unit: "binary" }),
        ),
        fc.constantFrom("noteBefore", "noteAfter"),
        (note, name) => {
          const result = parseForm(chapterTranslationSchema, form({ [name]: note }));
          const expected = note.replace(/\r\n?/g, "\n").trim();
          if (result.ok) {
            const kept = result.data[name as "noteBefore" | "noteAfter"];
            expect(kept).toBe(expected === "" ? null : expected);
            expect([...(kept ?? "")].length).toBeLessThanOrEqual(CHAPTER_LIMITS.note);
          } else {
            expect(result.errors).toEqual({ [name]: "admin.translation.errors.noteLong" });
            expect([...expected].length).toBeGreaterThan(CHAPTER_LIMITS.note);
          }
          const file = front({ [name]: note });
          expect(file.success).toBe([...note.trim()].length <= CHAPTER_LIMITS.note);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never throws on any fields of the form, naming each refusal with a translation message (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("title", "bodyMd", "noteBefore", "noteAfter", "version", "other"),
          fc.oneof(fc.string({ maxLength: 300 }), fc.string({ minLength: 10_000, maxLength: 10_005 })),
        ),
        (fields) => {
          const data = new FormData();
          for (const [name, value] of Object.entries(fields)) data.set(name, value);
          const result = parseForm(chapterTranslationSchema, data);
          if (!result.ok)
            for (const message of Object.values(result.errors))
              expect(message).toMatch(/^admin\.translation\.errors\./);
        },
      ),
      { numRuns: 300 },
    );
  });
});
