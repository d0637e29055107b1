import type { Element, ElementContent, Root } from "hast";
import rehypeParse from "rehype-parse";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { pairBlocks } from "./pairing";

const parser = unified().use(rehypeParse, { fragment: true }).freeze();
const printer = unified().use(rehypeStringify).freeze();

/** A rendered text's top-level blocks (its numbered blocks: features/content/markdown.server.ts). */
const blocksOf = (html: string): Element[] =>
  (parser.parse(html) as Root).children.filter((node): node is Element => node.type === "element");

/**
 * The original's blocks without ids: the translation's blocks keep theirs (`p-N`, the anchors, places and
 * bookmarks name), and no id is on the page twice. Its in-text links then lead to the translation's notes.
 */
function withoutIds(block: Element): Element {
  visit(block, "element", (node: Element) => {
    delete node.properties.id;
    delete node.properties.dataP;
  });
  return block;
}

const element = (className: string, children: ElementContent[], lang?: string): Element => ({
  type: "element",
  tagName: "div",
  properties: { className: [className], ...(lang ? { lang } : {}) },
  children,
});

/**
 * A chapter's translated text with its original beside it (ADR 97): one row per pair (features/reader/
 * pairing.ts), the original's blocks first (`lang="en"`, shown muted) then the translation's, so a screen
 * reader reads each original paragraph and then its translation. The translation's blocks are those of its
 * own text, in order, so block N is still the Nth translated block (features/reader/blocks.ts finds them).
 */
export function sideBySideHtml(
  originalHtml: string,
  translatedHtml: string,
  language: string,
  paragraphMap: readonly unknown[] | null | undefined,
): string {
  const originals = blocksOf(originalHtml);
  const translated = blocksOf(translatedHtml);
  const rows = pairBlocks(originals.length, translated.length, paragraphMap).map(
    ({ original, translation }) =>
      element("pair", [
        element("pair-original", originals.slice(...original).map(withoutIds), "en"),
        element("pair-translation", translated.slice(...translation), language),
      ]),
  );
  return printer.stringify({ type: "root", children: rows });
}
