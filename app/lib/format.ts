/**
 * Intl formatters are costly to build (20-90 µs each, against 1 µs to format with one) and a page formats
 * dozens of figures: each formatter is built once per language, zone and options and kept. The set is small
 * (four languages, a few currencies and date styles, the zones readers are in, which are checked names);
 * past MAX_KEPT, the kept ones are dropped and built again.
 */
const MAX_KEPT = 2000;

function kept<F>(cache: Map<string, F>, key: string, build: () => F): F {
  let format = cache.get(key);
  if (!format) {
    if (cache.size >= MAX_KEPT) cache.clear();
    format = build();
    cache.set(key, format);
  }
  return format;
}

const numberFormatters = new Map<string, Intl.NumberFormat>();
const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function numberFormat(language: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return kept(
    numberFormatters,
    `${language}|${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(language, options),
  );
}

/** A date in `language` and `timeZone`, with Intl's options (kept formatters, as numbers). */
export function formatDate(
  date: Date,
  language: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium" },
): string {
  return kept(
    dateFormatters,
    `${language}|${timeZone}|${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(language, { ...options, timeZone }),
  ).format(date);
}

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
    numberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return numberFormat(language, {
    style: "currency",
    currency,
    minimumFractionDigits: minor || cents % 10 ** fractionDigits !== 0 ? fractionDigits : 0,
  }).format(cents / 10 ** fractionDigits);
}

export function formatNumber(value: number, language: string): string {
  return numberFormat(language).format(value);
}
