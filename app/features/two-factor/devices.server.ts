import { and, eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { knownDevices } from "#db/schema";
import { getEnv } from "~/lib/env.server";
import { readCookies } from "~/lib/preferences.server";
import { hashToken, randomToken } from "~/lib/tokens.server";

/**
 * Known devices (ADR 65): each browser carries a random id in a long-lived HttpOnly cookie, and an account
 * keeps the hashes of the ids it signed in or registered with. The cookie proves nothing alone (anyone can
 * make one up); it only says "this account was used here before", so an author's sign-in from elsewhere asks
 * for an e-mailed code.
 */

const DEVICE_COOKIE_DAYS = 400;
const DEVICE_ID = /^[\w-]{43}$/;

function secureCookies(): boolean {
  return getEnv().origin.startsWith("https:");
}

export function deviceCookieName(): string {
  return secureCookies() ? "__Host-device" : "device";
}

/** The device id the browser presented, when it has the shape of one. */
export function presentedDevice(request: Request): string | undefined {
  const id = readCookies(request).get(deviceCookieName());
  return id && DEVICE_ID.test(id) ? id : undefined;
}

function deviceCookie(id: string): string {
  const parts = [
    `${deviceCookieName()}=${id}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${DEVICE_COOKIE_DAYS * 24 * 60 * 60}`,
  ];
  if (secureCookies()) parts.push("Secure");
  return parts.join("; ");
}

/** Whether the account signed in (or registered) on this browser before. */
export async function isKnownDevice(request: Request, userId: number): Promise<boolean> {
  const id = presentedDevice(request);
  if (!id) return false;
  const [row] = await db()
    .select({ id: knownDevices.id })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, hashToken(id))));
  return row !== undefined;
}

/**
 * Records the browser as known for the account (a new id when it has none), and answers the Set-Cookie
 * header that keeps its id for another 400 days.
 */
export async function rememberDevice(request: Request, userId: number): Promise<string> {
  const id = presentedDevice(request) ?? randomToken();
  await db()
    .insert(knownDevices)
    .values({ userId, deviceHash: hashToken(id) })
    .onConflictDoUpdate({
      target: [knownDevices.userId, knownDevices.deviceHash],
      set: { lastUsedAt: sql`now()` },
    });
  return deviceCookie(id);
}
