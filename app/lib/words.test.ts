import { describe, expect, it } from "vitest";
import { countWords, readingMinutes } from "./words";

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
