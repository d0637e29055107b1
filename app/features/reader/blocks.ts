/**
 * A chapter text's blocks in the browser. The server numbers the top-level blocks by their place in the text
 * (features/content/markdown.server.ts): block N is the article's child N, so places, bookmarks and notes name
 * a block by that number without an attribute of its own on every paragraph. Shown side by side with the
 * original (ADR 97), the article holds rows instead, and block N is the Nth block of the rows' translations:
 * the original's blocks are not counted, so places mean the same with the setting on or off.
 */

/** The text's blocks, in order. */
export function blocksOf(article: Element | null | undefined): Element[] {
  if (!article) return [];
  return article.firstElementChild?.classList.contains("pair")
    ? [...article.querySelectorAll(":scope > .pair > .pair-translation > *")]
    : [...article.children];
}

/** The block at a place in the text. */
export const blockAt = (article: Element | null | undefined, index: number) =>
  blocksOf(article)[index] as HTMLElement | undefined;

/** The place of the block at the top of the screen, below the reader's pinned bar. */
export function paragraphInView(article: Element): number {
  const top = document.querySelector(".reader-header")?.getBoundingClientRect().bottom ?? 0;
  const blocks = blocksOf(article);
  for (let index = 0; index < blocks.length; index++) {
    if ((blocks[index] as Element).getBoundingClientRect().bottom > top) return index;
  }
  return Math.max(0, blocks.length - 1);
}
