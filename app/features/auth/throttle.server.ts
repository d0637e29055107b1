import { eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { rateLimits } from "#db/schema";
import type { RequestMeta } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/**
 * Throttling kept in the database, so every app instance agrees (docs/security-model.md S2).
 * A key counts hits within a window; past `limit`, it is blocked for `blockSeconds`, doubling with each
 * further hit (growing back-off), until the window passes with no hit. Nothing is locked for good.
 */
export type Rule = { limit: number; windowSeconds: number; blockSeconds: number };

export const rules = {
  /** The 11th quick wrong password for one account is refused. */
  loginAccount: { limit: 10, windowSeconds: 15 * 60, blockSeconds: 30 },
  loginIp: { limit: 50, windowSeconds: 15 * 60, blockSeconds: 60 },
  // Configured limits are read when used, from the validated environment (SIGNUP_/RESET_LIMIT_PER_HOUR).
  get signupIp(): Rule {
    return { limit: getEnv().SIGNUP_LIMIT_PER_HOUR, windowSeconds: 60 * 60, blockSeconds: 15 * 60 };
  },
  get resetIp(): Rule {
    return { limit: getEnv().RESET_LIMIT_PER_HOUR, windowSeconds: 60 * 60, blockSeconds: 15 * 60 };
  },
  /** A new confirmation e-mail: three an hour per account, so the button cannot mail an address at will. */
  confirmationMail: { limit: 3, windowSeconds: 60 * 60, blockSeconds: 15 * 60 },
} satisfies Record<string, Rule>;

export class Throttled extends AppError {
  override name = "Throttled";
  constructor(readonly retryAfterSeconds: number) {
    super("throttled", 429, "auth.throttled", `Throttled for ${retryAfterSeconds} s`);
  }
}

/** Seconds until the key may be tried again, or 0. */
export async function blockedFor(key: string): Promise<number> {
  const [row] = await db()
    .select({ blockedUntil: rateLimits.blockedUntil })
    .from(rateLimits)
    .where(eq(rateLimits.key, key));
  const until = row?.blockedUntil?.getTime() ?? 0;
  return Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

/** Throws Throttled when any of the keys is blocked. */
export async function assertNotBlocked(keys: string[], meta?: RequestMeta): Promise<void> {
  const waits = await Promise.all(keys.map(blockedFor));
  const wait = Math.max(0, ...waits);
  if (wait > 0) {
    logger.warn(
      {
        event: "throttled",
        requestId: meta?.requestId,
        ip: meta?.ip,
        keys: keys.map((key) => key.replace(/:.*@/, ":…@")),
        wait,
      },
      "throttled",
    );
    throw new Throttled(wait);
  }
}

/** Counts one hit atomically and blocks the key once it passes the rule's limit. */
export async function hit(key: string, rule: Rule): Promise<void> {
  await db()
    .insert(rateLimits)
    .values({ key, hits: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${rateLimits.windowStartedAt} < now() - make_interval(secs => ${rule.windowSeconds}) then 1 else ${rateLimits.hits} + 1 end`,
        windowStartedAt: sql`case when ${rateLimits.windowStartedAt} < now() - make_interval(secs => ${rule.windowSeconds}) then now() else ${rateLimits.windowStartedAt} end`,
      },
    });
  // Past the limit, block for blockSeconds * 2^(hits beyond the limit), at most the window.
  await db()
    .update(rateLimits)
    .set({
      blockedUntil: sql`now() + make_interval(secs => least(${rule.blockSeconds} * power(2, ${rateLimits.hits} - ${rule.limit}), ${rule.windowSeconds}))`,
    })
    .where(sql`${rateLimits.key} = ${key} and ${rateLimits.hits} >= ${rule.limit}`);
}

export async function reset(key: string): Promise<void> {
  await db().delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Counts a request against a rule and refuses it when over: for sign-up and reset requests. */
export async function consume(key: string, rule: Rule, meta?: RequestMeta): Promise<void> {
  await assertNotBlocked([key], meta);
  await hit(key, rule);
}
