/** Words in a Markdown text: runs of letters or digits, ignoring markup, URLs and HTML tags. */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ");
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** Estimated reading time at 230 words a minute, at least one minute. */
export function readingMinutes(wordCount: number): number {
  return Math.max(1, Math.round(wordCount / 230));
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
