import { BETA_LIMITS } from "./limits";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" };

/** Text from a fragment of the chapter's sanitised HTML: tags dropped, the few entities it writes decoded. */
function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => ENTITIES[name] ?? "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The words of each numbered block of a chapter's rendered text (`id="p-0"`, or `data-p="0"` beside an
 * author's own id: features/content/markdown.server.ts), in order:
 * a block runs from its opening tag to the next block's. A note on a paragraph keeps its words from here
 * (at most `quoteMax` characters), and its number is checked against how many there are.
 */
export function blockTexts(html: string): string[] {
  const starts = [...html.matchAll(/<[a-z][a-z0-9]*\b[^>]*\s(?:id="p-|data-p=")\d+"/g)].map(
    (match) => match.index,
  );
  return starts.map((start, i) => plainText(html.slice(start, starts[i + 1] ?? html.length)));
}

/** A block's words cut to the length a note keeps, with an ellipsis when cut. */
export function quoteOf(text: string): string {
  return text.length <= BETA_LIMITS.quoteMax ? text : `${text.slice(0, BETA_LIMITS.quoteMax - 1).trimEnd()}…`;
}
