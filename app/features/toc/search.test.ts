import { describe, expect, it } from "vitest";
import { chapterJump, SEARCH_MAX, searchKey, searchText, titleMatcher } from "./search";

describe("the search by chapter title", () => {
  it("ignores case and the accents of Latin letters", () => {
    expect(titleMatcher("seance")("La Séance")).toBe(true);
    expect(titleMatcher("SÉANCE")("la seance")).toBe(true);
    expect(titleMatcher("noël")("NOEL")).toBe(true);
    expect(titleMatcher("seance")("Silence")).toBe(false);
  });

  it("finds a substring of a Japanese title, keeping the marks of kana", () => {
    expect(titleMatcher("降る")("雪が降る夜")).toBe(true);
    expect(titleMatcher("か")("雪が降る夜")).toBe(false);
    // Half-width katakana and full-width letters are their usual forms.
    expect(titleMatcher("ｶﾞ")("ガラス")).toBe(true);
    expect(titleMatcher("ＡＢ")("ab")).toBe(true);
  });

  it("takes spaces as one, and every title holds an empty search", () => {
    expect(titleMatcher("  the   long ")("The long night")).toBe(true);
    expect(titleMatcher("")("anything")).toBe(true);
    expect(titleMatcher("   ")("anything")).toBe(true);
  });

  it("cuts a search to its limit in characters, never half of one", () => {
    expect(searchText("x".repeat(150))).toBe("x".repeat(SEARCH_MAX));
    expect(Array.from(searchText("😀".repeat(150)))).toHaveLength(SEARCH_MAX);
    expect(searchText(null)).toBe("");
    expect(searchText("  a  ")).toBe("a");
  });

  it("never throws on random text up to past the limit, and a title holds itself (fuzz)", () => {
    const alphabet = [
      "a",
      "É",
      "é",
      "e\u0301",
      " ",
      "\t",
      "雪",
      "ｶﾞ",
      "😀",
      "\ud800",
      "\u0000",
      "%",
      "Ａ",
      "ß",
      "İ",
    ];
    for (let run = 0; run < 2000; run++) {
      const length = Math.floor(Math.random() * (SEARCH_MAX + 30));
      const text = Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(
        "",
      );
      const search = searchText(text);
      expect(Array.from(search).length).toBeLessThanOrEqual(SEARCH_MAX);
      expect(titleMatcher(search)(search)).toBe(true);
      expect(titleMatcher(search)(`before ${search} after`)).toBe(true);
      expect(typeof searchKey(text)).toBe("string");
    }
  });
});

describe("the jump to a chapter number", () => {
  it("reads a whole number, leading zeros and spaces aside", () => {
    expect(chapterJump("12")).toEqual({ number: 12 });
    expect(chapterJump(" 007 ")).toEqual({ number: 7 });
    expect(chapterJump("0")).toEqual({ number: 0 });
  });

  it("answers nothing for an empty field and what was given for anything else, cut", () => {
    expect(chapterJump("")).toBeUndefined();
    expect(chapterJump(null)).toBeUndefined();
    expect(chapterJump("-3")).toEqual({ invalid: "-3" });
    expect(chapterJump("1.5")).toEqual({ invalid: "1.5" });
    expect(chapterJump("abc")).toEqual({ invalid: "abc" });
    expect(chapterJump("9".repeat(400))).toEqual({ invalid: "9".repeat(12) });
  });

  it("never throws, and any number it reads is a safe whole number (fuzz)", () => {
    const alphabet = ["0", "1", "9", "-", "+", ".", "e", " ", "١", "😀", "x"];
    for (let run = 0; run < 2000; run++) {
      const length = Math.floor(Math.random() * 40);
      const text = Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(
        "",
      );
      const jump = chapterJump(text);
      if (jump && "number" in jump) {
        expect(Number.isSafeInteger(jump.number) && jump.number >= 0 && jump.number < 1e6).toBe(true);
      } else if (jump) expect(Array.from(jump.invalid).length).toBeLessThanOrEqual(12);
    }
  });
});
