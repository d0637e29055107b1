/**
 * Which of a chapter's original blocks each translated block stands beside in the side-by-side view (ADR 97),
 * from the translation's paragraph map (docs/content-format.md: for each translated block, the original's
 * block it renders, numbered from 1). Pure: the server renders the pairs, the tests try its edge cases.
 */

/** One row: the original's blocks `[from, to)` beside the translation's `[from, to)`; either may be empty. */
export type Pair = { original: [number, number]; translation: [number, number] };

/**
 * The rows pairing `originals` original blocks with `translated` translated ones, in order, each block in
 * exactly one row. Each translated block starts at the original its map entry names; an entry that is missing,
 * not a whole number or out of range takes the original after the previous block's (the first block's: the
 * first original), and one naming an earlier original than its predecessor stays with that one, so the order
 * of both texts is kept. A translated block that is the last to name an original also stands beside the
 * originals no later block names (one paragraph translating two); several naming one original share its row
 * (one paragraph translated as two). Originals before the first named one form a row of their own, and more
 * translated blocks than originals go with the last original.
 */
export function pairBlocks(
  originals: number,
  translated: number,
  map: readonly unknown[] | null | undefined,
): Pair[] {
  if (originals <= 0 || translated <= 0)
    return originals > 0 || translated > 0
      ? [{ original: [0, Math.max(0, originals)], translation: [0, Math.max(0, translated)] }]
      : [];
  const starts: number[] = [];
  for (let index = 0; index < translated; index++) {
    const entry = map?.[index];
    const previous = starts[index - 1];
    const named =
      typeof entry === "number" && Number.isInteger(entry) && entry >= 1 && entry <= originals
        ? entry - 1
        : previous === undefined
          ? 0
          : Math.min(previous + 1, originals - 1);
    starts.push(previous === undefined ? named : Math.max(named, previous));
  }
  const pairs: Pair[] = [];
  const first = starts[0] ?? 0;
  if (first > 0) pairs.push({ original: [0, first], translation: [0, 0] });
  for (let index = 0; index < translated; ) {
    const start = starts[index] ?? 0;
    let end = index + 1;
    while (end < translated && starts[end] === start) end++;
    pairs.push({ original: [start, starts[end] ?? originals], translation: [index, end] });
    index = end;
  }
  return pairs;
}
