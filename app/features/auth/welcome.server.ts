import { and, eq, gt, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { coinLedger } from "#db/schema";
import { getEnv } from "~/lib/env.server";
import { readCookies } from "~/lib/preferences.server";

/** How long after sign-up /welcome may still announce the coins just granted. */
const FRESH_SECONDS = 600;
const COOKIE = "welcomed";

/**
 * The welcome coins /welcome announces, once: only when this account's bonus was booked moments ago
 * (by a sign-up with a password or through a provider alike) and this browser has not been told yet.
 * Showing it returns the Set-Cookie that marks the browser told, so a later visit is a plain welcome.
 * Derived from the ledger rather than a marker set by the sign-up, so neither sign-up path has to know.
 */
export async function announcedWelcomeBonus(
  request: Request,
  userId: number,
): Promise<{ coins: number; setCookie: string } | undefined> {
  if (readCookies(request).get(COOKIE) === String(userId)) return undefined;
  const [entry] = await db()
    .select({ delta: coinLedger.delta })
    .from(coinLedger)
    .where(
      and(
        eq(coinLedger.idempotencyKey, `welcome:${userId}`),
        // The database stamped the entry, so its clock judges the age.
        gt(coinLedger.createdAt, sql`now() - make_interval(secs => ${FRESH_SECONDS})`),
      ),
    );
  if (!entry) return undefined;
  const parts = [`${COOKIE}=${userId}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${FRESH_SECONDS}`];
  if (getEnv().origin.startsWith("https:")) parts.push("Secure");
  return { coins: entry.delta, setCookie: parts.join("; ") };
}
