import type { Database } from "#db/client.server";
import type { Mailer } from "~/features/mail/mailer.server";
import { releaseTime } from "~/lib/clock.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { announceOpenings, announceTranslations, releaseMailBaseline } from "./announce.server";
import { sendDueMails } from "./send.server";

/** How often each instance looks for openings and due e-mails: well inside a release minute. */
export const TICK_MS = 15_000;

/** E-mails one instance sends a tick, from RELEASE_MAILS_PER_MINUTE (the throttle). */
export function perTick(perMinute: number, tickMs = TICK_MS): number {
  return Math.max(1, Math.floor((perMinute * tickMs) / 60_000));
}

/**
 * One tick of the release e-mails (ADR 45): queue what opened since the last and the translations out since
 * (once each, whichever instance gets there first), then send a throttled batch of what is due. Any number of instances may run it at once.
 */
export async function runReleaseMails(
  options: { releaseNow?: Date; now?: Date; limit?: number; mailer?: Mailer; database?: Database } = {},
) {
  const releaseNow = options.releaseNow ?? releaseTime();
  const queued =
    (await announceOpenings(releaseNow, options.database)) +
    (await announceTranslations(releaseNow, options.database));
  const sent = await sendDueMails({ ...options, releaseNow });
  return { queued, ...sent };
}

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/**
 * Fixes the baseline (the first start mails nobody about chapters already out), then ticks every TICK_MS in
 * this process (server/app.ts). A tick still running when the next is due is not doubled.
 */
export async function startReleaseMails(everyMs = TICK_MS): Promise<void> {
  if (timer) return;
  await releaseMailBaseline();
  const limit = perTick(getEnv().RELEASE_MAILS_PER_MINUTE, everyMs);
  timer = setInterval(() => {
    if (running) return;
    running = runReleaseMails({ limit })
      .catch((error: unknown) =>
        logger.error({ event: "release-mails.tick-failed", err: error }, "release e-mails tick failed"),
      )
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
}

/** Stops the ticks and waits for one in flight, so the database is not closed under it. */
export async function stopReleaseMails(): Promise<void> {
  clearInterval(timer);
  timer = undefined;
  await running;
}
