import { describe, expect, it } from "vitest";
import { negotiateLanguage } from "./config";

describe("negotiateLanguage", () => {
  it.each([
    [undefined, "en"],
    ["", "en"],
    ["ja", "ja"],
    ["es-MX,es;q=0.9,en;q=0.8", "es"],
    ["de-DE,fr;q=0.7,en;q=0.5", "fr"],
    ["en;q=0.2,ja;q=0.9", "ja"],
    ["de,it", "en"],
    ["fr;q=0,es", "es"],
  ])("Accept-Language %j gives %s", (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });
});
