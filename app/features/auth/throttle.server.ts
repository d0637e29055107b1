import { eq, inArray, sql } from "drizzle-orm";
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
  /** The 11th quick wrong password for one account from one address is refused, from that address. */
  loginAccountIp: { limit: 10, windowSeconds: 15 * 60, blockSeconds: 30 },
  /**
   * Past 20 wrong passwords for one account from anywhere, the account is under attack: an address that has
   * itself failed for it waits out this block, any other address may still try (see `assertMayTryPassword`).
   */
  loginAccount: { limit: 20, windowSeconds: 15 * 60, blockSeconds: 30 },
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
  refuseIfWaiting(Math.max(0, ...waits), keys, meta);
}

/** Logs the refusal (the e-mail address masked) and throws Throttled, when there is a wait. */
function refuseIfWaiting(wait: number, keys: string[], meta?: RequestMeta): void {
  if (wait <= 0) return;
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

/**
 * The counters a password sign-in is held by. Wrong passwords count per account and address, per address
 * and per account; the account's own count never holds an address that has not failed for it, so guessing
 * from many addresses cannot keep the owner out (docs/security-model.md S2).
 */
function signInKeys(email: string, ip: string) {
  const account = email.toLowerCase();
  return {
    accountIp: `login:account-ip:${account}|${ip}`,
    ip: `login:ip:${ip}`,
    account: `login:account:${account}`,
  };
}

/**
 * Throws Throttled when this address may not try a password for this account now: the address is blocked
 * (too many wrong passwords from it, any account), the account from this address is blocked, or the account
 * is under attack and this address has failed for it within the window.
 */
export async function assertMayTryPassword(email: string, meta: RequestMeta): Promise<void> {
  const keys = signInKeys(email, meta.ip);
  const rows = await db()
    .select()
    .from(rateLimits)
    .where(inArray(rateLimits.key, [keys.accountIp, keys.ip, keys.account]));
  const now = Date.now();
  const row = (key: string) => rows.find((candidate) => candidate.key === key);
  const waitOf = (key: string) =>
    Math.max(0, Math.ceil(((row(key)?.blockedUntil?.getTime() ?? 0) - now) / 1000));
  const pair = row(keys.accountIp);
  const failedHere =
    pair !== undefined &&
    pair.hits > 0 &&
    pair.windowStartedAt.getTime() > now - rules.loginAccountIp.windowSeconds * 1000;
  const wait = Math.max(waitOf(keys.accountIp), waitOf(keys.ip), failedHere ? waitOf(keys.account) : 0);
  refuseIfWaiting(wait, Object.values(keys), meta);
}

/** Counts one wrong password for this account from this address. */
export async function countWrongPassword(email: string, meta: RequestMeta): Promise<void> {
  const keys = signInKeys(email, meta.ip);
  await Promise.all([
    hit(keys.accountIp, rules.loginAccountIp),
    hit(keys.ip, rules.loginIp),
    hit(keys.account, rules.loginAccount),
  ]);
}

/**
 * A right password forgets this address's wrong ones for the account. The account's own count is left to
 * run out: a sign-in by the owner does not reopen the account to the addresses that were guessing.
 */
export async function forgetWrongPasswords(email: string, meta: RequestMeta): Promise<void> {
  await reset(signInKeys(email, meta.ip).accountIp);
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
