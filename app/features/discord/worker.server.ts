import { logger } from "~/lib/logger.server";
import { discordConfig } from "./config.server";
import { latestEvent, syncChangedReaders } from "./follow.server";
import { reconcileRoles } from "./sync.server";

/**
 * The reconcile job (ADR 84): a tier can change while no one is looking (a renewal that failed, a refund,
 * membership days running out), so every minute each instance sets right the links synced longest ago.
 */
export const TICK_MS = 60_000;
/** How often the tier changes just made (reader events) are followed: the immediate sync. */
export const FOLLOW_MS = 5_000;

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/**
 * Starts the ticks in this process (server/app.ts) when the perk is configured: the reader events every
 * FOLLOW_MS, the reconcile every TICK_MS. One piece of work at a time; a tick due while one runs is skipped.
 */
export async function startDiscordRoles(everyMs = TICK_MS, followMs = FOLLOW_MS): Promise<void> {
  if (timer || !discordConfig()) return;
  let position = await latestEvent();
  let lastReconcile = Date.now();
  const tick = async () => {
    position = await syncChangedReaders(position);
    if (Date.now() - lastReconcile < everyMs) return;
    lastReconcile = Date.now();
    await reconcileRoles();
  };
  timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch((error: unknown) =>
        logger.error({ event: "discord.tick-failed", err: error }, "Discord role sync failed"),
      )
      .finally(() => {
        running = undefined;
      });
  }, followMs);
  timer.unref();
}

/** Stops the ticks and waits for one in flight, so the database is not closed under it. */
export async function stopDiscordRoles(): Promise<void> {
  clearInterval(timer);
  timer = undefined;
  await running;
}
