/**
 * Money is integer minor units with a currency code; formatting happens only here. Whole amounts drop their
 * minor units ($25) unless `minor` asks for them, as a cart's figures do ($65.00).
 */
export function formatMoney(
  cents: number,
  currency: string,
  language: string,
  { minor = false }: { minor?: boolean } = {},
): string {
  const fractionDigits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(language, {
    style: "currency",
    currency,
    minimumFractionDigits: minor || cents % 10 ** fractionDigits !== 0 ? fractionDigits : 0,
  }).format(cents / 10 ** fractionDigits);
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}
