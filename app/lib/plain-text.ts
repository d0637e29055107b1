/**
 * One line of plain text as the public forms take it (a wall name and message, a poll's question and labels):
 * no control characters (line breaks included) and no bidi overrides, which would reorder what follows.
 */
export const CONTROL_OR_BIDI = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** Code points, as PostgreSQL's char_length counts them (the columns' checks). */
export const codePoints = (value: string) => [...value].length;
