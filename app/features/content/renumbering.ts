/** Moving a chapter to another number (ADR 39): which chapters move, and the links that follow them. */

/**
 * Where each chapter goes when one moves from `from` to `to` (ADR 39): to a number nobody holds, it simply
 * takes it; to a held number, the chapters from there to its old place move one step toward the gap it
 * leaves, as in a list where one item is dragged. Returns old number → new number for the chapters that move.
 */
export function renumbering(numbers: readonly number[], from: number, to: number): Map<number, number> {
  const moves = new Map<number, number>();
  if (from === to) return moves;
  moves.set(from, to);
  if (!numbers.includes(to)) return moves;
  for (const number of numbers) {
    if (to > from && number > from && number <= to) moves.set(number, number - 1);
    if (to < from && number >= to && number < from) moves.set(number, number + 1);
  }
  return moves;
}

/** A link to a chapter in Markdown or HTML: `](/chapter/N` or `href="/chapter/N`, N followed by a boundary. */
const CHAPTER_LINK = /(\]\(|href=["'])\/chapter\/(\d+)(?=[)#?"'/\s]|$)/g;

/** `text` with its links to moved chapters pointing at their new numbers. */
export function relinked(text: string, moves: ReadonlyMap<number, number>): string {
  return text.replace(CHAPTER_LINK, (link, opening: string, number: string) => {
    const moved = moves.get(Number(number));
    return moved === undefined ? link : `${opening}/chapter/${moved}`;
  });
}
