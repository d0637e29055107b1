import { describe, expect, it } from "vitest";
import en from "./locales/en.json";
import es from "./locales/es.json";
import fr from "./locales/fr.json";
import ja from "./locales/ja.json";

/** What this test reads of a catalogue. */
type Catalogue = {
  tiers: Record<string, string>;
  supporters: { tiers: Record<string, string> };
  payments: { giftItem: string };
};
const catalogues: Record<string, Catalogue> = { en, es, fr, ja };
const tierKeys = ["observer", "analyst", "first_human"] as const;

function texts(catalogue: unknown, prefix = ""): [string, string][] {
  if (typeof catalogue === "string") return [[prefix, catalogue]];
  return Object.entries(catalogue as Record<string, unknown>).flatMap(([key, value]) =>
    texts(value, prefix ? `${prefix}.${key}` : key),
  );
}

/**
 * One name per tier and language: the tier cards, the supporters filter, the purchase history, the e-mails,
 * the account and the admin all name a tier by `tiers.<key>` (the wall's filter by `supporters.tiers`, which
 * must agree), and a one-off gift by `payments.giftItem`.
 */
describe.each(Object.entries(catalogues))("tier names in %s", (language, catalogue) => {
  it("agree between the tiers, the supporters wall and the purchase history", () => {
    for (const key of tierKeys) expect(catalogue.supporters.tiers[key]).toBe(catalogue.tiers[key]);
    expect(catalogue.supporters.tiers.gift).toBe(catalogue.payments.giftItem);
  });

  it.skipIf(language === "en")("never use the English name of a tier that has a name of its own", () => {
    const english = tierKeys
      .map((key) => en.tiers[key])
      .filter((name, index) => {
        const key = tierKeys[index];
        return key !== undefined && catalogue.tiers[key] !== name;
      });
    const stray = texts(catalogue).filter(([, text]) =>
      english.some((name) => new RegExp(`\\b${name}\\b`).test(text)),
    );
    expect(stray).toEqual([]);
  });
});
