import { describe, expect, it } from "vitest";
import { localizedPath, pathLanguage, unprefixedPath } from "./urls";

describe("language URLs", () => {
  it("reads the language segment only when it is a supported language", () => {
    expect(pathLanguage("/es/chapter/1")).toBe("es");
    expect(pathLanguage("/ja")).toBe("ja");
    expect(pathLanguage("/chapter/1")).toBeNull();
    expect(pathLanguage("/de/chapter/1")).toBeNull();
    expect(pathLanguage("/esx/chapter")).toBeNull();
    expect(pathLanguage("/")).toBeNull();
  });

  it("strips and adds the segment, the home page included", () => {
    expect(unprefixedPath("/fr/wiki/characters")).toBe("/wiki/characters");
    expect(unprefixedPath("/fr")).toBe("/");
    expect(unprefixedPath("/toc")).toBe("/toc");
    expect(localizedPath("es", "/chapter/2")).toBe("/es/chapter/2");
    expect(localizedPath("es", "/")).toBe("/es");
    expect(localizedPath("ja", "/fr/toc")).toBe("/ja/toc");
  });
});
