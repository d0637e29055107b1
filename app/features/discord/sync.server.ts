import { and, asc, eq, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { discordLinks } from "#db/schema";
import { getMembership } from "~/features/membership/queries.server";
import { logger } from "~/lib/logger.server";
import { setRole } from "./api.server";
import { type DiscordConfig, discordConfig } from "./config.server";
import { desiredRole, roleChange } from "./roles";

/**
 * Keeps each linked reader's Discord role in step with their tier (ADR 84). A sync claims the link (a lease
 * taken with SKIP LOCKED, committed at once: no transaction stays open while Discord answers), asks Discord
 * for the difference between the role it last applied and the tier's, writes what it applied and lets go.
 * Whatever fails (a rate limit past its bound, Discord down) is tried again by the reconcile job.
 */

/** How long a claimed link is held: far longer than a sync's few bounded calls take. */
export const LEASE_MS = 2 * 60_000;
/** Past this, a sync gives the desired role again even when it thinks it applied it (someone took it away). */
export const VERIFY_MS = 24 * 60 * 60_000;

export type ClaimedLink = {
  userId: number;
  discordUserId: string;
  appliedRoleId: string | null;
  inGuild: boolean;
  syncedAt: Date | null;
};

/** Claims up to `limit` links matching `where` whose lease is free; links another sync holds are skipped. */
export async function claimLinks(
  now: Date,
  limit: number,
  where?: SQL,
  database: Database = db(),
): Promise<ClaimedLink[]> {
  const free = or(isNull(discordLinks.leaseUntil), lte(discordLinks.leaseUntil, now));
  const due = database
    .select({ userId: discordLinks.userId })
    .from(discordLinks)
    .where(where ? and(free, where) : free)
    .orderBy(sql`${discordLinks.syncedAt} asc nulls first`, asc(discordLinks.userId))
    .limit(limit)
    .for("update", { skipLocked: true });
  return database
    .update(discordLinks)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS) })
    .where(inArray(discordLinks.userId, due))
    .returning({
      userId: discordLinks.userId,
      discordUserId: discordLinks.discordUserId,
      appliedRoleId: discordLinks.appliedRoleId,
      inGuild: discordLinks.inGuild,
      syncedAt: discordLinks.syncedAt,
    });
}

/** Claims one reader's link; undefined when there is none or another sync holds it. */
export async function claimLink(userId: number, now = new Date(), database: Database = db()) {
  const [link] = await claimLinks(now, 1, eq(discordLinks.userId, userId), database);
  return link;
}

export type SyncOutcome = "unchanged" | "changed" | "failed";

/**
 * Applies the difference for a claimed link and lets it go. Each step is written as it succeeds, so a
 * failure halfway (the old role taken, the new not yet given) leaves the truth for the next sync.
 */
export async function applyClaimed(
  config: DiscordConfig,
  link: ClaimedLink,
  now: Date,
  options: {
    database?: Database /** Just joined: in the guild, and the role given whatever was applied. */;
    joined?: boolean;
  } = {},
): Promise<SyncOutcome> {
  const database = options.database ?? db();
  const { tier } = await getMembership(link.userId, now);
  const desired = desiredRole(tier, config.roles);
  const change = roleChange(link.appliedRoleId, desired);
  const stale = !link.syncedAt || now.getTime() - link.syncedAt.getTime() > VERIFY_MS;
  const verify = desired !== null && (stale || options.joined === true);
  let applied = link.appliedRoleId;
  let inGuild = link.inGuild || options.joined === true;
  let error: string | null = null;
  try {
    if (change.remove) {
      await setRole(config, link.discordUserId, change.remove, false);
      applied = null;
    }
    const give = change.add ?? (verify ? desired : null);
    if (give) {
      await setRole(config, link.discordUserId, give, true);
      applied = give;
      inGuild = true;
    }
  } catch (failure) {
    error = (failure instanceof Error ? failure.message : String(failure)).slice(0, 500);
    logger.warn(
      { event: "discord.sync-failed", userId: link.userId, err: error },
      "Discord role sync failed",
    );
  }
  await releaseLink(link, { applied, inGuild, error, now }, database);
  if (error) return "failed";
  return applied === link.appliedRoleId ? "unchanged" : "changed";
}

/**
 * Writes what the sync did and frees the lease. The columns the settings page shows are written only when
 * they change: their trigger is a reader event (migration 0036), the rest is bookkeeping.
 */
export async function releaseLink(
  link: ClaimedLink,
  result: { applied: string | null; inGuild: boolean; error: string | null; now: Date },
  database: Database = db(),
): Promise<void> {
  await database
    .update(discordLinks)
    .set({
      leaseUntil: null,
      lastError: result.error,
      ...(result.error ? {} : { syncedAt: result.now }),
      ...(result.applied !== link.appliedRoleId ? { appliedRoleId: result.applied } : {}),
      ...(result.inGuild !== link.inGuild ? { inGuild: result.inGuild } : {}),
    })
    .where(eq(discordLinks.userId, link.userId));
}

/** Brings one reader's role in step now (after a link, or a change of tier); skipped when unconfigured. */
export async function syncReader(
  userId: number,
  options: { now?: Date; database?: Database } = {},
): Promise<SyncOutcome | "skipped"> {
  const config = discordConfig();
  if (!config) return "skipped";
  const now = options.now ?? new Date();
  const link = await claimLink(userId, now, options.database);
  if (!link) return "skipped";
  return applyClaimed(config, link, now, options);
}

/**
 * One tick of the reconcile job: the links synced longest ago (never first), each recomputed from the tier
 * as it is now and set right. Any number of instances may run it at once: each claims different links.
 */
export async function reconcileRoles(
  options: { now?: Date; limit?: number; database?: Database } = {},
): Promise<Record<SyncOutcome, number>> {
  const outcome = { unchanged: 0, changed: 0, failed: 0 };
  const config = discordConfig();
  if (!config) return outcome;
  const now = options.now ?? new Date();
  const claimed = await claimLinks(now, options.limit ?? 50, undefined, options.database);
  for (const link of claimed) outcome[await applyClaimed(config, link, now, options)]++;
  return outcome;
}
