import { logger } from "~/lib/logger.server";
import { sendDueQaMails } from "./mail.server";

/** How often each instance sends what a publish queued (a publish is rare; a minute is soon enough). */
export const QA_TICK_MS = 60_000;

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/** Sends due Q&A e-mails every QA_TICK_MS in this process (server/app.ts); a tick in flight is not doubled. */
export function startQaMails(everyMs = QA_TICK_MS): void {
  if (timer) return;
  timer = setInterval(() => {
    running ??= sendDueQaMails()
      .catch((error: unknown) =>
        logger.error({ event: "qa-mails.tick-failed", err: error }, "Q&A e-mails tick failed"),
      )
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
}

/** Stops the ticks and waits for one in flight, so the database is not closed under it. */
export async function stopQaMails(): Promise<void> {
  clearInterval(timer);
  timer = undefined;
  await running;
}
