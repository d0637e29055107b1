/** A country's name in `language` (ISO 3166-1 alpha-2 code in; the code itself when unnamed). */
export function countryName(code: string | null, language: string): string | null {
  if (!code) return null;
  return new Intl.DisplayNames(language, { type: "region" }).of(code) ?? code;
}

/** An order's shipping address as lines to show or mail (none when nothing ships). */
export function shippingAddressLines(order: {
  shipName: string | null;
  shipLine1: string | null;
  shipLine2: string | null;
  shipCity: string | null;
  shipPostalCode: string | null;
  /** The country's name (countryName). */
  country: string | null;
}): string[] {
  return [
    order.shipName,
    order.shipLine1,
    order.shipLine2,
    [order.shipPostalCode, order.shipCity].filter(Boolean).join(" "),
    order.country,
  ].filter((part): part is string => Boolean(part));
}
