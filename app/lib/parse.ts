/**
 * Checks for values that reach the database from a request (ADR 15). The database refuses what these
 * refuse (a NUL byte in text, a number past int4, a date past its range) with an error, which would be a 500;
 * checked here first, the request gets its 4xx. No dependencies: the reader's browser code uses them too.
 */

export const INT32_MAX = 2_147_483_647;

/** A row id (`serial`): a positive int4, from a number or a route parameter of digits. */
export function parseId(value: unknown): number | undefined {
  const number = typeof value === "string" ? (/^\d{1,10}$/.test(value) ? Number(value) : Number.NaN) : value;
  return Number.isInteger(number) && (number as number) >= 1 && (number as number) <= INT32_MAX
    ? (number as number)
    : undefined;
}

/**
 * A whole number as a form or an address gives it: an optional sign and at most 15 digits, nothing else (not
 * "1e3", "0x10", " 5" or "5.0", which `Number` would take), from `min` to `max`; anything else is undefined.
 * An integer already parsed (JSON) is checked against the range alone.
 */
export function parseWholeNumber(value: unknown, min: number, max: number): number | undefined {
  const number =
    typeof value === "string" ? (/^[+-]?\d{1,15}$/.test(value) ? Number(value) : Number.NaN) : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number >= min && number <= max
    ? number + 0 // -0 is 0
    : undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Text of at most `max` characters with no control characters but tab and line breaks (never NUL). */
export function isCleanText(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length <= max && !CONTROL.test(value);
}

/** The earliest and latest instants a reader's record can carry (the epoch is a fresh record's). */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/** An ISO timestamp between 1970 and 2100, normalised; anything else (year 0, +275760, not a date) is undefined. */
export function parseTimestamp(value: unknown): string | undefined {
  // What comes out is a fresh ISO string, whatever the input held (a NUL byte): only the length is checked
  // here, as the reader's browser loads this too.
  if (typeof value !== "string" || value.length > 40) return undefined;
  const time = Date.parse(value);
  return time >= EARLIEST && time <= LATEST ? new Date(time).toISOString() : undefined;
}
