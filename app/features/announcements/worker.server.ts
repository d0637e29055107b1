import { mailTicker } from "~/features/mail/ticker.server";
import { sendDueAnnouncementMails } from "./mail.server";

/** How often each instance sends what a publish queued: news is not urgent, and publishing is rare. */
export const ANNOUNCEMENT_TICK_MS = 30_000;

const ticker = mailTicker(
  "announcement-mails.tick-failed",
  () => sendDueAnnouncementMails(),
  ANNOUNCEMENT_TICK_MS,
);

/** Sends due announcement e-mails every ANNOUNCEMENT_TICK_MS in this process (server/app.ts, ADR 95). */
export function startAnnouncementMails(everyMs = ANNOUNCEMENT_TICK_MS): void {
  ticker.start(everyMs);
}

export const stopAnnouncementMails = (): Promise<void> => ticker.stop();
