import type { ProgressMark } from "./continue";
import { type ChapterProgress, parseProgress } from "./progress";
import { mergeProgress } from "./progress-merge";

/** A signed-in reader's progress in a chapter as the account has it (another device may be further on). */
export async function loadAccountProgress(chapter: number): Promise<ChapterProgress | undefined> {
  try {
    const response = await fetch(`/reader/progress?chapter=${chapter}`, { cache: "no-store" });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { progress?: unknown };
    return parseProgress(body.progress);
  } catch {
    return undefined;
  }
}

/**
 * A signed-in reader's marks of every chapter they opened, as the account has them (the table of contents),
 * or undefined when the account could not be asked. Marks of another shape are left out.
 */
export async function loadAccountMarks(): Promise<Record<number, ProgressMark> | undefined> {
  try {
    const response = await fetch("/reader/progress", { cache: "no-store" });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { marks?: Record<string, Partial<ProgressMark>> };
    return Object.fromEntries(
      Object.entries(body.marks ?? {}).flatMap(([number, mark]) =>
        typeof mark?.completed === "boolean" &&
        typeof mark.percent === "number" &&
        typeof mark.lastReadAt === "string"
          ? [
              [
                Number(number),
                { completed: mark.completed, percent: mark.percent, lastReadAt: mark.lastReadAt },
              ],
            ]
          : [],
      ),
    );
  } catch {
    return undefined;
  }
}

/**
 * The account's record of a chapter as what it makes of this browser's own once it has arrived: the two
 * merged (furthest progress, all bookmarks); undefined when the account has none or could not be asked.
 */
export async function loadAccountMerge(
  chapter: number,
): Promise<((local: ChapterProgress) => ChapterProgress) | undefined> {
  const account = await loadAccountProgress(chapter);
  return account && ((local) => mergeProgress(account, local));
}

// A visitor's view of the chapter as the server last signed it (visitor-views.server.ts): kept in memory only,
// sent back with the next write, so the server counts the reading of one view once.
let view: string | undefined;

/**
 * Sends the reader's progress to the server (a visitor's counts their reading there, anonymously); returns
 * false (to retry later) when it could not. `onEarned` gets the messages of achievements the write earned
 * (the chapter page's toast).
 */
export async function sendProgress(
  chapter: number,
  progress: ChapterProgress,
  onEarned?: (messages: string[]) => void,
): Promise<boolean> {
  const body = JSON.stringify({ entries: [{ chapter, progress }], view });
  if (document.visibilityState === "hidden" && navigator.sendBeacon) {
    return navigator.sendBeacon("/reader/progress", new Blob([body], { type: "application/json" }));
  }
  try {
    const response = await fetch("/reader/progress", {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
      keepalive: true,
    });
    if (response.ok)
      void response.json().then((body: { earned?: string[]; view?: string }) => {
        view = body.view;
        if (body.earned?.length) onEarned?.(body.earned);
      });
    return response.ok;
  } catch {
    return false;
  }
}
