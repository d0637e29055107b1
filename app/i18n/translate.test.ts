import { describe, expect, it } from "vitest";
import { createTranslator } from "./translate";

const catalogue = {
  a: { hello: "Hello {{name}}", coins_one: "{{count}} coin", coins_other: "{{count}} coins" },
  fr: { coins_one: "{{count}} pièce", coins_many: "{{count}} de pièces", coins_other: "{{count}} pièces" },
};

describe("createTranslator", () => {
  it("looks up nested keys and fills variables", () => {
    expect(createTranslator("en", catalogue)("a.hello", { name: "Ilse" })).toBe("Hello Ilse");
  });

  it("picks the CLDR plural form of the language", () => {
    const t = createTranslator("en", catalogue);
    expect(t("a.coins", { count: 1 })).toBe("1 coin");
    expect(t("a.coins", { count: 0 })).toBe("0 coins");
    const fr = createTranslator("fr", catalogue);
    expect(fr("fr.coins", { count: 0 })).toBe("0 pièce");
    expect(fr("fr.coins", { count: 1_000_000 })).toBe("1000000 de pièces");
    expect(createTranslator("ja", { c: { n_other: "{{count}}枚" } })("c.n", { count: 1 })).toBe("1枚");
  });

  it("shows the key for a missing message", () => {
    expect(createTranslator("en", catalogue)("a.missing")).toBe("a.missing");
  });
});
