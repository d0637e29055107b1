import { describe, expect, it } from "vitest";
import { parseMarkdownFile } from "./files.server";
import { chapterSchema, resolveReleaseAt } from "./schemas";

describe("parseMarkdownFile", () => {
  it("splits front matter from the body and validates it", () => {
    const doc = parseMarkdownFile(
      "chapters/1.md",
      '---\nnumber: 1\ntitle: "One"\nvolume: 1\nreleaseAt: 2026-01-06T18:00:00Z\n---\n\nThe body.\n',
      chapterSchema,
    );
    expect(doc.data).toMatchObject({ number: 1, title: "One", coinsRequired: 0, tags: [], artwork: [] });
    expect(doc.body).toBe("The body.");
  });

  it("names the file and the field in its errors", () => {
    expect(() => parseMarkdownFile("chapters/2.md", "---\nnumber: two\n---\nx", chapterSchema)).toThrowError(
      /chapters\/2\.md: number: .*; title: /,
    );
    expect(() => parseMarkdownFile("chapters/3.md", "no front matter", chapterSchema)).toThrowError(
      "chapters/3.md: missing front matter",
    );
    expect(() => parseMarkdownFile("chapters/4.md", "---\n: [\n---\n", chapterSchema)).toThrowError(
      /chapters\/4\.md: front matter is not valid YAML/,
    );
  });
});

describe("resolveReleaseAt", () => {
  const now = new Date("2026-11-22T10:00:00Z");
  it("reads --MM-DD as the next such day at midnight UTC", () => {
    expect(resolveReleaseAt("--12-15", now).toISOString()).toBe("2026-12-15T00:00:00.000Z");
    expect(resolveReleaseAt("--01-06", now).toISOString()).toBe("2027-01-06T00:00:00.000Z");
    expect(resolveReleaseAt("--11-22", now).toISOString()).toBe("2027-11-22T00:00:00.000Z");
  });
  it("keeps absolute dates as they are", () => {
    expect(resolveReleaseAt("2026-01-06T18:00:00Z", now).toISOString()).toBe("2026-01-06T18:00:00.000Z");
  });
});
