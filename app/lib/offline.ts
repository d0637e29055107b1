/**
 * The marks between a chapter page and the offline worker (public/sw.js, ADR 96). A chapter page the reader may
 * read says so with `X-Offline: keep, next=N` (N: the next chapter, which the worker asks for once ahead); a
 * page without it (locked, a preview, any other page) is never kept on the device. The worker's asks say
 * `Purpose: prefetch`: the reader did not open that chapter, so it unlocks nothing (features/reader/arrival.server.ts).
 */
export const OFFLINE_HEADER = "X-Offline";

/** The loader's header for a chapter page: kept only when readable and not an author's preview. */
export function offlineHeaders(readable: boolean, next: number | undefined): Record<string, string> {
  if (!readable) return {};
  return { [OFFLINE_HEADER]: next === undefined ? "keep" : `keep, next=${next}` };
}
