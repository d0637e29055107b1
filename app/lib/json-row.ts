/**
 * Rows read as JSON (json_agg, row_to_json: several lists in one statement) bring their timestamps as ISO
 * strings; these give them back as the Date a Drizzle select gives.
 */
export type JsonRow<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

export const fromIso = (value: string): Date => new Date(value);

export const fromIsoOrNull = (value: string | null): Date | null => (value === null ? null : new Date(value));
