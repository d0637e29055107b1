import { mailTicker } from "~/features/mail/ticker.server";
import { sendDueQaMails } from "./mail.server";

/** How often each instance sends what a publish queued (a publish is rare; a minute is soon enough). */
export const QA_TICK_MS = 60_000;

const ticker = mailTicker("qa-mails.tick-failed", () => sendDueQaMails(), QA_TICK_MS);

/** Sends due Q&A e-mails every QA_TICK_MS in this process (server/app.ts); a tick in flight is not doubled. */
export function startQaMails(everyMs = QA_TICK_MS): void {
  ticker.start(everyMs);
}

/** Stops the ticks and waits for one in flight, so the database is not closed under it. */
export const stopQaMails = (): Promise<void> => ticker.stop();
