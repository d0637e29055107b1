import { logger } from "~/lib/logger.server";
import { discordConfig } from "./config.server";
import { reconcileRoles } from "./sync.server";

/**
 * The reconcile job (ADR 84): a tier can change while no one is looking (a renewal that failed, a refund,
 * membership days running out), so every minute each instance sets right the links synced longest ago.
 */
export const TICK_MS = 60_000;

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/** Starts the ticks in this process (server/app.ts) when the perk is configured; a tick never doubles. */
export function startDiscordRoles(everyMs = TICK_MS): void {
  if (timer || !discordConfig()) return;
  timer = setInterval(() => {
    if (running) return;
    running = reconcileRoles()
      .catch((error: unknown) =>
        logger.error({ event: "discord.tick-failed", err: error }, "Discord role reconcile failed"),
      )
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
}

/** Stops the ticks and waits for one in flight, so the database is not closed under it. */
export async function stopDiscordRoles(): Promise<void> {
  clearInterval(timer);
  timer = undefined;
  await running;
}
