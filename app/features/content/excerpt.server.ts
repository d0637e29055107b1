import { renderMarkdown } from "./markdown.server";

/** An excerpt's most characters, cut at a word. */
const EXCERPT_CHARS = 280;

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The text of an HTML character reference (the sanitiser writes `&#x26;` and `&amp;` alike). */
function character(reference: string): string {
  if (reference.startsWith("#x")) return String.fromCodePoint(Number.parseInt(reference.slice(2), 16));
  if (reference.startsWith("#")) return String.fromCodePoint(Number(reference.slice(1)));
  return named[reference] ?? "";
}

/** A chapter's opening as plain text: its sanitised HTML without tags, cut at a word under `max` characters. */
export function excerptOf(markdown: string, max = EXCERPT_CHARS): string {
  return excerptOfHtml(renderMarkdown(markdown), max);
}

/** As `excerptOf`, from the chapter's HTML already rendered. */
export function excerptOfHtml(html: string, max = EXCERPT_CHARS): string {
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (_, reference: string) => character(reference))
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1))}…`;
}
