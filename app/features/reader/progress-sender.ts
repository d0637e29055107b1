import type { ChapterProgress } from "./progress";

/**
 * How often the chapter page hands the reader's progress to the server while they read (ADR 67): at most
 * once in this time, and once more when the page is left. A crash of the server loses at most this much of
 * the reading it had not yet been sent; the reading rule counts 15 s batches as it counted 1 s ones (ADR 58).
 */
export const SAVE_EVERY_MS = 15_000;

/**
 * Sends the latest record at most every SAVE_EVERY_MS, and only when it changed since the last send that
 * went through; a failed send (offline, server restarting) is retried at the next tick, since the record is
 * whole each time. `flush` sends at once: the page is being left, or the reader did something they expect
 * to see counted now (a bookmark, the end of the chapter, which may earn an achievement).
 */
export function startSending(
  latest: () => ChapterProgress,
  send: () => ((progress: ChapterProgress) => Promise<boolean>) | undefined,
  every = SAVE_EVERY_MS,
): { flush: () => void; stop: () => void } {
  let sent = "";
  const flush = () => {
    const progress = latest();
    const snapshot = JSON.stringify(progress);
    const sender = send();
    if (snapshot === sent || !sender) return;
    sent = snapshot;
    void sender(progress).then((ok) => {
      if (!ok && sent === snapshot) sent = "";
    });
  };
  const timer = setInterval(flush, every);
  return {
    flush,
    stop: () => {
      clearInterval(timer);
      flush();
    },
  };
}
