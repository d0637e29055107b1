import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContentError, parseTranslationFile } from "./files.server";

const parse = (relative: string, text: string) =>
  parseTranslationFile(`es/${relative}`, "es", relative, text);

describe("a translation file (ADR 86)", () => {
  it("reads a chapter's translatable fields and text", () => {
    const doc = parse(
      "chapters/1.md",
      "---\ntitle: La puerta\nartwork:\n  - caption: Un muro\n---\n\nTexto.\n",
    );
    expect(doc).toMatchObject({ kind: "chapter", key: "1", data: { title: "La puerta" }, body: "Texto." });
  });

  it("refuses a field the original does not translate, a path of no original, and an oversized text", () => {
    expect(() => parse("chapters/1.md", "---\ntitle: T\nreleaseAt: 2020-01-01\n---\n")).toThrow(/releaseAt/);
    expect(() => parse("chapters/x.md", "---\ntitle: T\n---\n")).toThrow(/not the path of an original/);
    expect(() => parse("../site.md", "---\ntitle: T\n---\n")).toThrow(ContentError);
    expect(() => parse("legal/terms.md", `---\ntitle: T\n---\n\n${"a".repeat(100_001)}`)).toThrow(
      /longer than/,
    );
    expect(() => parse("tiers/observer.md", "---\nname: N\nperks: [1]\n---\n")).toThrow(ContentError);
  });

  it("answers any text and any path with the document or a ContentError naming the file, never another error", () => {
    const paths = fc.oneof(
      fc.constantFrom(
        "site.md",
        "chapters/2.md",
        "wiki/world/the-wall.md",
        "fundraiser.md",
        "coin-packs/coins-5.md",
        "tiers/analyst.md",
      ),
      fc.string({ maxLength: 40 }),
    );
    const texts = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc
        .tuple(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }))
        .map(([front, body]) => `---\n${front}\n---\n${body}`),
      fc
        .dictionary(
          fc.constantFrom(
            "title",
            "summary",
            "name",
            "perks",
            "goals",
            "artwork",
            "paragraphMap",
            "originalDigest",
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map((front) => `---\n${JSON.stringify(front)}\n---\nbody`),
    );
    fc.assert(
      fc.property(paths, texts, (relative, text) => {
        try {
          parse(relative, text);
        } catch (error) {
          expect(error).toBeInstanceOf(ContentError);
          expect((error as Error).message.startsWith("es/")).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});
