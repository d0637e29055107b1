import { describe, expect, it } from "vitest";
import { checkProject, checkSource, compareCatalogues } from "./check-i18n";

describe("compareCatalogues", () => {
  const en = { a: { title: "Hello {{name}}" }, coins_one: "{{count}} coin", coins_other: "{{count}} coins" };

  it("accepts a complete translation with the plural forms of its language", () => {
    const fr = {
      a: { title: "Bonjour {{name}}" },
      coins_one: "{{count}} pièce",
      coins_many: "{{count}} pièces",
      coins_other: "{{count}} pièces",
    };
    expect(compareCatalogues(en, fr, "fr")).toEqual([]);
    expect(compareCatalogues(en, { a: { title: "{{name}}さん" }, coins_other: "{{count}}枚" }, "ja")).toEqual(
      [],
    );
  });

  it("reports missing keys, plural forms and variables", () => {
    expect(compareCatalogues(en, { coins_one: "x", coins_other: "{{count}}" }, "es")).toEqual([
      "es: missing key a.title",
      "es: missing plural form coins_many",
    ]);
    expect(compareCatalogues(en, { a: { title: "Hola" }, coins_other: "{{count}}" }, "ja")).toEqual([
      "ja: a.title lacks {{name}}",
    ]);
  });
});

describe("checkSource", () => {
  const keys = new Set(["known.key"]);

  it("finds text and readable attributes outside the catalogue, and unknown keys", () => {
    const code = `export const A = () => <div title="Hover text"><img alt={"A moon"} /><p>Hello there</p>{t("known.key")}{t("missing.key")}<span className="x">→ 404</span></div>;`;
    const problems = checkSource("a.tsx", code, keys);
    expect(problems).toHaveLength(4);
    expect(problems.join("\n")).toMatch(/Hello there/);
    expect(problems.join("\n")).toMatch(/title="Hover text"/);
    expect(problems.join("\n")).toMatch(/alt="A moon"/);
    expect(problems.join("\n")).toMatch(/unknown message key "missing.key"/);
  });
});

describe("the project's catalogues and components", () => {
  it("are complete in every language and bypass nothing", () => {
    expect(checkProject(process.cwd())).toEqual([]);
  });
});
