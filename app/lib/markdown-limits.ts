/**
 * The most Markdown one chapter may hold: 200 KB as UTF-8 (a long chapter is 10 000 words, some 60 KB).
 * The preview refuses more with `admin.editor.tooLong`, and the editor says so before sending; the request
 * body limit for /admin/preview (server/body-limit.ts) leaves room above it for the form's own bytes.
 */
export const MARKDOWN_MAX_BYTES = 200 * 1024;

/** A text's size as UTF-8, as the server counts it. */
export function markdownBytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** An author's note before or after a chapter (ADR 95): characters (code points), in the form and the import. */
export const NOTE_MAX_CHARS = 10_000;
export const withinNoteLimit = (text: string) => [...text].length <= NOTE_MAX_CHARS;
