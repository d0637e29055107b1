/**
 * The table of contents' search by chapter title and its jump to a chapter number (ADR 92). One module for the
 * server (a `?q=` without JavaScript) and the page as the reader types, so both list the same chapters.
 */

/** The longest search kept, in characters: a longer one is cut, never refused. */
export const SEARCH_MAX = 100;

/** The search a query parameter holds: trimmed, cut to `SEARCH_MAX` characters (never half a character). */
export function searchText(raw: string | null | undefined): string {
  const characters = Array.from((raw ?? "").trim());
  return characters.length > SEARCH_MAX
    ? characters.slice(0, SEARCH_MAX).join("").trim()
    : characters.join("");
}

/**
 * A text as it is compared: compatibility forms folded (full-width letters, half-width kana), the accents of
 * Latin letters dropped ("Séance" is "seance") but not the marks of kana (が stays が), lower case, one space.
 */
export function searchKey(text: string): string {
  return text
    .normalize("NFKC")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether a title holds the search (a substring, in any language); every title holds an empty search. */
export function titleMatcher(search: string): (title: string) => boolean {
  const key = searchKey(searchText(search));
  return key ? (title) => searchKey(title).includes(key) : () => true;
}

/** The chapter a jump asks for: a whole number, or `invalid` (not one, or over `JUMP_MAX_DIGITS` digits). */
export type ChapterJump = { number: number } | { invalid: string };

/** A chapter number has at most this many digits (the table's routes take six). */
export const JUMP_MAX_DIGITS = 6;

/** Reads the jump's field: `undefined` when empty, else the number or what was given (cut, for the message). */
export function chapterJump(raw: string | null | undefined): ChapterJump | undefined {
  const text = (raw ?? "").trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) {
    const digits = text.replace(/^0+(?=\d)/, "");
    if (digits.length <= JUMP_MAX_DIGITS) return { number: Number(digits) };
  }
  return { invalid: Array.from(text).slice(0, 12).join("") };
}
