import { z } from "zod";

/**
 * The checkout form (ADR 25): the shipping address and the dedication, and nothing else: no line, price or
 * quantity, which the server reads from the reader's stored cart. The same schema checks the form in the
 * browser and in the action; every message is a catalogue key shown beside its field.
 */

/** ISO 3166-1 alpha-2 codes of the countries we ship to; their names come from Intl.DisplayNames in the page language. */
export const COUNTRIES = (
  "AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK " +
  "FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS " +
  "IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK " +
  "ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL " +
  "PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC " +
  "TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");

const sortedCountries = new Map<string, { code: string; name: string }[]>();

/** The countries with their names in `language`, sorted by name as that language sorts. */
export function countryOptions(language: string): { code: string; name: string }[] {
  const known = sortedCountries.get(language);
  if (known) return known;
  const names = new Intl.DisplayNames(language, { type: "region" });
  const collator = new Intl.Collator(language);
  const sorted = COUNTRIES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
  // Named and sorted once per language (a checkout page asks on every request); a handful of languages.
  if (sortedCountries.size < 16) sortedCountries.set(language, Object.freeze(sorted) as typeof sorted);
  return sorted;
}

export const DEDICATION_MAX = 500;

/** One line of text: trimmed, within `min`..`max` characters, no control characters (NUL included). */
const line = (min: number, max: number, message: string) =>
  z
    .string(message)
    .trim()
    .min(min, message)
    .max(max, message)
    .regex(/^[^\p{Cc}]*$/u, message);

const address = {
  shipName: line(1, 100, "checkout.errors.name"),
  shipLine1: line(1, 200, "checkout.errors.line1"),
  shipLine2: line(0, 200, "checkout.errors.line2").optional(),
  shipCity: line(1, 100, "checkout.errors.city"),
  shipPostalCode: line(1, 20, "checkout.errors.postalCode").regex(
    /^[\p{L}\p{N}][\p{L}\p{N} -]*$/u,
    "checkout.errors.postalCode",
  ),
  shipCountry: z.enum(COUNTRIES, "checkout.errors.country"),
};

/** Fields a form may carry although this cart does not use them (an address for a cart of commissions): ignored, but bounded. */
const unused = z
  .string()
  .max(DEDICATION_MAX * 2)
  .optional();

export type CheckoutNeeds = { shipping: boolean; dedication: boolean };

/** The checkout form's schema for a cart: any field it does not know (a price, a product id) is refused. */
export function checkoutFormSchema(needs: CheckoutNeeds) {
  const ignored = Object.fromEntries(Object.keys(address).map((key) => [key, unused]));
  return z.strictObject(
    {
      ...(needs.shipping ? address : ignored),
      dedication: needs.dedication
        ? z
            .string("checkout.errors.dedication")
            .trim()
            .max(DEDICATION_MAX, "checkout.errors.dedication")
            // Line breaks allowed; other control characters (NUL included) not.
            .refine((text) => !/\p{Cc}/u.test(text.replace(/\r?\n/g, "")), "checkout.errors.dedication")
            .optional()
        : z.literal("", "checkout.errors.noDedication").optional(),
    },
    { error: () => "checkout.errors.unexpectedField" },
  );
}

export type ShippingAddress = {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  postalCode: string;
  country: string;
};

/** The parsed form as the order stores it. */
export function readCheckoutForm(
  data: Record<string, string | undefined>,
  needs: CheckoutNeeds,
): { shipping: ShippingAddress | null; dedication: string | null } {
  const shipping =
    needs.shipping &&
    data.shipName &&
    data.shipLine1 &&
    data.shipCity &&
    data.shipPostalCode &&
    data.shipCountry
      ? {
          name: data.shipName,
          line1: data.shipLine1,
          line2: data.shipLine2 || null,
          city: data.shipCity,
          postalCode: data.shipPostalCode,
          country: data.shipCountry,
        }
      : null;
  return { shipping, dedication: (needs.dedication && data.dedication) || null };
}
