/** Money is integer minor units with a currency code; formatting happens only here. */
export function formatMoney(cents: number, currency: string, language: string): string {
  const fractionDigits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(language, {
    style: "currency",
    currency,
    minimumFractionDigits: cents % 10 ** fractionDigits === 0 ? 0 : fractionDigits,
  }).format(cents / 10 ** fractionDigits);
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}
