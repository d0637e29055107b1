import { describe, expect, it } from "vitest";
import { countWords } from "~/lib/words";
import { generateLargeSerial } from "./generate.server";

describe("generateLargeSerial", () => {
  it("makes 1,000 chapters of 3,000-5,000 words in 10 volumes, the same every time", () => {
    const bundle = generateLargeSerial();
    expect(bundle.volumes.map((v) => v.data.number)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(bundle.chapters).toHaveLength(1000);
    for (const chapter of bundle.chapters.filter((_, i) => i % 97 === 0)) {
      const words = countWords(chapter.body);
      expect(words).toBeGreaterThanOrEqual(3000);
      expect(words).toBeLessThanOrEqual(5100);
    }
    expect(new Set(bundle.chapters.map((c) => c.data.volume)).size).toBe(10);
    expect(generateLargeSerial().chapters[500]?.body).toBe(bundle.chapters[500]?.body);
  });
});
