import { describe, expect, it } from "vitest";
import { alternatePaths, localizedPath, pathLanguage, routerPath, unprefixedPath } from "./urls";

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

  it("gives a path as a language's router reads it, so a redirect is never prefixed twice", () => {
    expect(routerPath("/es/account", "/es/account?x=1")).toBe("/account?x=1");
    expect(routerPath("/es/cart", "/shop")).toBe("/shop");
    expect(routerPath("/cart", "/es/shop")).toBe("/es/shop");
  });

  it("lists the four languages' paths and the unprefixed x-default", () => {
    expect(alternatePaths("/fr/toc")).toEqual([
      { hreflang: "en", path: "/en/toc" },
      { hreflang: "es", path: "/es/toc" },
      { hreflang: "fr", path: "/fr/toc" },
      { hreflang: "ja", path: "/ja/toc" },
      { hreflang: "x-default", path: "/toc" },
    ]);
  });
});
