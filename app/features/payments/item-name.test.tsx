import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Language } from "~/i18n/config";
import en from "~/i18n/locales/en.json";
import es from "~/i18n/locales/es.json";
import fr from "~/i18n/locales/fr.json";
import ja from "~/i18n/locales/ja.json";
import { I18nProvider } from "~/i18n/react";
import { ItemName, type PaymentItem } from "./item-name";

const catalogues = { en, es, fr, ja };

function render(language: Language, item: PaymentItem) {
  return renderToString(
    <I18nProvider language={language} catalogue={catalogues[language]}>
      <ItemName item={item} />
    </I18nProvider>,
  );
}

// The descriptions the checkout stores for the payment provider's line item, in one language.
const gift: PaymentItem = { kind: "gift", coins: 0, tierKey: null, description: "One-off gift" };
const analyst: PaymentItem = {
  kind: "subscription",
  coins: 0,
  tierKey: "analyst",
  description: "Analyst (monthly)",
};

describe("a payment's item, named in the reader's language", () => {
  it.each(["es", "fr", "ja"] as const)(
    "%s: a gift and a subscription, never the stored English",
    (language) => {
      const catalogue = catalogues[language];
      expect(render(language, gift)).toBe(catalogue.payments.giftItem);
      expect(render(language, analyst)).toBe(
        catalogue.payments.subscriptionItem.replace("{{tier}}", catalogue.tiers.analyst),
      );
      for (const html of [render(language, gift), render(language, analyst)])
        expect(html).not.toMatch(/\b(gift|Analyst|monthly)\b/);
    },
  );
});
