/** Han, kana and hangul: scripts written without spaces, read and counted a character at a time. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/gu;

const plainText = (markdown: string) =>
  markdown
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ");

/**
 * Words in a Markdown text: runs of letters or digits, ignoring markup, URLs and HTML tags; each CJK character
 * counts as one (a Japanese sentence has no spaces to count by).
 */
export function countWords(markdown: string): number {
  const text = plainText(markdown);
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + (text.replace(CJK, " ").match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0);
}

/** The CJK characters of a Markdown text (each also one of `countWords`). */
export function countCjk(markdown: string): number {
  return plainText(markdown).match(CJK)?.length ?? 0;
}

/**
 * Estimated reading time, at least one minute: 230 words a minute, and for the CJK characters among them 500
 * a minute (docs/product-rules.md "Reading time").
 */
export function readingMinutes(wordCount: number, cjkCount = 0): number {
  return Math.max(1, Math.round((wordCount - cjkCount) / 230 + cjkCount / 500));
}

/**
 * The opening of a paragraph, to name it in a list: its first `words` words, or for text written without
 * spaces (Japanese) its first `characters` characters; never more than 200 characters, with an ellipsis
 * when cut.
 */
export function firstWords(text: string, words = 8, characters = 24): string {
  const clean = text.replace(/\s+/g, " ").trim();
  const parts = clean.split(" ");
  let opening = parts.length > 1 ? parts.slice(0, words).join(" ") : [...clean].slice(0, characters).join("");
  if (opening.length > 200) opening = opening.slice(0, 200);
  return opening.length < clean.length ? `${opening}…` : clean;
}
