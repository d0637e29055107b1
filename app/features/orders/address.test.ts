import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripeExpiry } from "~/features/payments/stripe-provider.server";
import { COUNTRIES, checkoutFormSchema, countryOptions, readCheckoutForm } from "./address";

const address = {
  shipName: "Ilse Marrow",
  shipLine1: "12 Lantern Row",
  shipCity: "New Lumen",
  shipPostalCode: "NL-1207",
  shipCountry: "GB",
};
const both = { shipping: true, dedication: true };

describe("the checkout form", () => {
  it("accepts an address and a dedication with line breaks, trimmed", () => {
    const parsed = checkoutFormSchema(both).parse({
      ...address,
      shipName: "  Ilse  ",
      dedication: "For\nIlse",
    });
    expect(readCheckoutForm(parsed, both)).toEqual({
      shipping: {
        name: "Ilse",
        line1: "12 Lantern Row",
        line2: null,
        city: "New Lumen",
        postalCode: "NL-1207",
        country: "GB",
      },
      dedication: "For\nIlse",
    });
  });

  it.each([
    ["shipName", "n".repeat(101), "checkout.errors.name"],
    ["shipLine1", "", "checkout.errors.line1"],
    ["shipLine2", "l".repeat(201), "checkout.errors.line2"],
    ["shipCity", "a\tb", "checkout.errors.city"],
    ["shipPostalCode", "-123", "checkout.errors.postalCode"],
    ["shipPostalCode", "1".repeat(21), "checkout.errors.postalCode"],
    ["shipCountry", "gb", "checkout.errors.country"],
    ["dedication", "d".repeat(501), "checkout.errors.dedication"],
    ["dedication", "a\u0000b", "checkout.errors.dedication"],
    ["unitPriceCents", "1", "checkout.errors.unexpectedField"],
  ])("refuses %s = %j with its own message", (field, value, message) => {
    const result = checkoutFormSchema(both).safeParse({ ...address, [field]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it("needs no address for a cart with nothing to ship, and refuses a dedication nothing takes", () => {
    const none = { shipping: false, dedication: false };
    expect(checkoutFormSchema(none).safeParse({}).success).toBe(true);
    expect(readCheckoutForm(checkoutFormSchema(none).parse({ shipName: "x" }), none).shipping).toBeNull();
    expect(checkoutFormSchema(none).safeParse({ dedication: "hi" }).error?.issues[0]?.message).toBe(
      "checkout.errors.noDedication",
    );
  });

  it("never throws and answers only with catalogue keys (fuzzed)", () => {
    const field = fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom(...COUNTRIES), fc.constant(""));
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.oneof(
            fc.constantFrom(...Object.keys(address), "shipLine2", "dedication"),
            fc.string({ maxLength: 12 }),
          ),
          field,
        ),
        fc.boolean(),
        fc.boolean(),
        (fields, shipping, dedication) => {
          const result = checkoutFormSchema({ shipping, dedication }).safeParse(fields);
          if (result.success) readCheckoutForm(result.data, { shipping, dedication });
          else
            for (const issue of result.error.issues) expect(issue.message).toMatch(/^checkout\.errors\.\w+$/);
        },
      ),
    );
  });
});

describe("the country list", () => {
  it("names every code in every language, sorted as the language sorts", () => {
    for (const language of ["en", "es", "fr", "ja"]) {
      const options = countryOptions(language);
      expect(options).toHaveLength(COUNTRIES.length);
      for (const option of options) expect(option.name).not.toBe(option.code);
    }
    expect(new Set(COUNTRIES).size).toBe(COUNTRIES.length);
    expect(countryOptions("fr").find((c) => c.code === "DE")?.name).toBe("Allemagne");
  });
});

describe("stripeExpiry", () => {
  const now = Date.UTC(2026, 10, 25, 12);
  it("keeps a reservation between 30 minutes and a day, and clamps the others into that range", () => {
    expect(stripeExpiry(new Date(now + 60 * 60_000), now)).toBe(now / 1000 + 3600);
    expect(stripeExpiry(new Date(now + 60_000), now)).toBe(now / 1000 + 31 * 60);
    expect(stripeExpiry(new Date(now + 48 * 3600_000), now)).toBe(now / 1000 + 24 * 3600 - 60);
  });
});
