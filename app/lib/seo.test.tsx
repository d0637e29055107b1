import fc from "fast-check";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { absolute, canonicalPath, clip, jsonLdText, shareTags } from "./seo";

const site = { origin: "https://covenant.example", name: "Crimson Covenant", language: "fr" as const };

describe("shareTags", () => {
  const page = {
    title: "1. The Tithe Ledger",
    description: "The ash came down at four o'clock.",
    path: "/chapter/1",
    type: "article" as const,
    image: { url: "/card/chapter/1.png", width: 1200, height: 630, alt: "Chapter 1" },
  };

  it("gives the description, the absolute canonical address, Open Graph and the card", () => {
    const tags = shareTags(page, site);
    const get = (key: string) =>
      tags.filter((tag) => ("name" in tag ? tag.name : "property" in tag ? tag.property : "") === key);
    expect(tags).toContainEqual({ canonical: "https://covenant.example/chapter/1" });
    expect(get("description")).toEqual([{ name: "description", content: page.description }]);
    expect(get("og:url")[0]).toMatchObject({ content: "https://covenant.example/chapter/1" });
    expect(get("og:image")[0]).toMatchObject({ content: "https://covenant.example/card/chapter/1.png" });
    expect(get("og:image:alt")[0]).toMatchObject({ content: "Chapter 1" });
    expect(get("og:type")[0]).toMatchObject({ content: "article" });
    expect(get("og:locale")[0]).toMatchObject({ content: "fr_FR" });
    expect(get("og:locale:alternate").map((tag) => "content" in tag && tag.content)).toEqual([
      "en_US",
      "es_ES",
      "ja_JP",
    ]);
    expect(get("twitter:card")[0]).toMatchObject({ content: "summary_large_image" });
  });

  it("links each language's address and the unprefixed x-default; canonical is the page's own URL", () => {
    const alternates = (tags: ReturnType<typeof shareTags>) =>
      Object.fromEntries(tags.flatMap((tag) => ("hreflang" in tag ? [[tag.hreflang, tag.href]] : [])));
    const expected = {
      en: "https://covenant.example/en/chapter/1",
      es: "https://covenant.example/es/chapter/1",
      fr: "https://covenant.example/fr/chapter/1",
      ja: "https://covenant.example/ja/chapter/1",
      "x-default": "https://covenant.example/chapter/1",
    };
    // At the unprefixed address, in the reader's language (French here).
    expect(alternates(shareTags(page, site))).toEqual(expected);
    // At the Spanish URL: the same alternates, itself canonical, og:locale Spanish.
    const spanish = shareTags(page, { ...site, language: "es", urlLanguage: "es" });
    expect(alternates(spanish)).toEqual(expected);
    expect(spanish).toContainEqual({ canonical: "https://covenant.example/es/chapter/1" });
    expect(spanish).toContainEqual({ property: "og:url", content: "https://covenant.example/es/chapter/1" });
    expect(spanish).toContainEqual({ property: "og:locale", content: "es_ES" });
    expect(spanish).not.toContainEqual({ property: "og:locale:alternate", content: "es_ES" });
    // A path already prefixed (a page that names its own) is the same page.
    const home = shareTags({ ...page, path: "/es" }, { ...site, urlLanguage: "ja" });
    expect(home).toContainEqual({ canonical: "https://covenant.example/ja" });
    expect(alternates(home)["x-default"]).toBe("https://covenant.example/");
  });

  it("is a plain summary card without a picture, and cuts a long description at a word", () => {
    const tags = shareTags({ ...page, image: undefined, description: "word ".repeat(100) }, site);
    expect(tags).toContainEqual({ name: "twitter:card", content: "summary" });
    expect(tags.some((tag) => "property" in tag && tag.property === "og:image")).toBe(false);
    const description = tags.find((tag) => "name" in tag && tag.name === "description");
    expect(description && "content" in description && description.content.length).toBeLessThanOrEqual(150);
    expect(clip("a\n  b")).toBe("a b");
  });

  it("keeps an https address and makes a path absolute on the configured origin only", () => {
    expect(absolute(site.origin, "/x")).toBe("https://covenant.example/x");
    expect(absolute(site.origin, "https://cdn.example/a.png")).toBe("https://cdn.example/a.png");
    expect(absolute(site.origin, "//evil.example/x")).toBe("https://covenant.example//evil.example/x");
  });

  it("keeps only the named query parameters in a canonical path", () => {
    const search = new URLSearchParams("utm_source=x&category=prints&fbclid=1");
    expect(canonicalPath("/shop", search, ["category"])).toBe("/shop?category=prints");
    expect(canonicalPath("/shop", search)).toBe("/shop");
  });
});

describe("jsonLdText", () => {
  const rendered = (value: unknown) =>
    renderToStaticMarkup(
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(value) }} />,
    );

  it("never lets a string close the script or open a comment, and parses back to the same value (fuzz)", () => {
    const nasty = fc.oneof(
      fc.string(),
      fc.string({ unit: "grapheme" }),
      fc.constantFrom(
        "</script>",
        "</SCRIPT >",
        "<!--",
        "-->",
        "\u2028",
        "\u2029",
        '"',
        "\\",
        "&amp;",
        "</script>",
      ),
    );
    const value = fc.dictionary(
      fc.string(),
      fc.array(nasty, { maxLength: 5 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(value, (object) => {
        const html = rendered({ "@type": "Thing", ...object });
        const inner = html.slice('<script type="application/ld+json">'.length, -"</script>".length);
        expect(inner).not.toMatch(/<|>|\u2028|\u2029/);
        expect(JSON.parse(inner)).toEqual({ "@type": "Thing", ...object });
      }),
      { numRuns: 500 },
    );
  });
});
