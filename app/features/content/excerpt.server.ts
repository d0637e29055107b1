import type { Element, Root, RootContent } from "hast";
import rehypeParse from "rehype-parse";
import { unified } from "unified";
import { renderMarkdown } from "./markdown.server";

/** An excerpt's most characters, cut at a word. */
const EXCERPT_CHARS = 280;

/**
 * Elements that run inside a line of text: their tags add no space ("<em>eleven</em>, then" reads "eleven,
 * then"). Every other element is a block, which ends a run of text ("one</li><li>two" reads "one two").
 */
const inline = new Set(
  "a abbr b bdi bdo cite code data del dfn em i img ins kbd mark picture q s samp small source span strong sub sup time u var wbr".split(
    " ",
  ),
);

/**
 * Left out: a heading is a title (the e-mail and the feed entry carry the chapter's own, and a heading at the
 * top would run into the first sentence), and a footnote reference is a number, not words of the text.
 */
const leftOut = (node: Element) =>
  /^h[1-6]$/.test(node.tagName) ||
  node.properties.dataFootnoteRef !== undefined ||
  node.properties.dataFootnotes !== undefined;

const htmlParser = unified().use(rehypeParse, { fragment: true });

/** The words of an HTML tree, a space wherever a block or a line break separates them. */
function textOf(nodes: RootContent[], parts: string[]): void {
  for (const node of nodes) {
    if (node.type === "text") parts.push(node.value);
    else if (node.type !== "element" || leftOut(node)) continue;
    else if (node.tagName === "br") parts.push(" ");
    else if (inline.has(node.tagName)) textOf(node.children, parts);
    else {
      parts.push(" ");
      textOf(node.children, parts);
      parts.push(" ");
    }
  }
}

/** A chapter's opening as plain text: the words a reader reads, cut at a word under `max` characters. */
export function excerptOf(markdown: string, max = EXCERPT_CHARS): string {
  return excerptOfHtml(renderMarkdown(markdown), max);
}

/**
 * As `excerptOf`, from HTML already rendered (a chapter's stored rendering, with its numbered blocks and
 * pictures): the one excerpt of the releases feed, the private feed and the release e-mails.
 */
export function excerptOfHtml(html: string, max = EXCERPT_CHARS): string {
  const parts: string[] = [];
  textOf((htmlParser.parse(html) as Root).children, parts);
  const text = parts.join("").replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1))}…`;
}
