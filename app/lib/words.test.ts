import { describe, expect, it } from "vitest";
import { countWords, firstWords, readingMinutes } from "./words";

describe("countWords", () => {
  it("counts words, not markup", () => {
    expect(countWords("She *didn't* look back — [the gate](https://x.example/a) <em>creaked</em>.")).toBe(7);
    expect(countWords("* * *\n\n")).toBe(0);
  });
});

describe("readingMinutes", () => {
  it("is at least a minute and rounds at 230 words a minute", () => {
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(2300)).toBe(10);
  });
});

describe("firstWords", () => {
  it.each([
    ["The Blood Moon was why everyone was in a hurry.", "The Blood Moon was why everyone was in…"],
    ["  Transferred.  ", "Transferred."],
    ["Two\n\twords", "Two words"],
    ["", ""],
    [
      "血の契約は運命よりも強い。彼女は台帳の前で立ち止まり、もう一度その名前を読んだ。",
      "血の契約は運命よりも強い。彼女は台帳の前で立ち止…",
    ],
    ["短い文。", "短い文。"],
    [`${"x".repeat(300)} y`, `${"x".repeat(200)}…`],
  ])("%j opens with %j", (text, expected) => {
    expect(firstWords(text)).toBe(expected);
  });
});
