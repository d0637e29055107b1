import type { SessionUser } from "~/features/auth/session.server";
import { autoUnlockOnArrival, autoUnlockSetting } from "~/features/coins/auto-unlock.server";
import type { RequestMeta } from "~/lib/context";
import type { Lock } from "./access.server";

/**
 * A prefetch (the chapter page prefetches the next chapter's route data: `<link rel="prefetch">`, which the
 * browser marks `Sec-Purpose: prefetch`; older ones `Purpose: prefetch`): the reader has not reached the chapter.
 */
export function isPrefetch(request: Request): boolean {
  const purpose = request.headers.get("sec-purpose") ?? request.headers.get("purpose") ?? "";
  return purpose.toLowerCase().includes("prefetch");
}

/**
 * A signed-in reader reached a coin-locked chapter: their automatic unlocking (ADR 90) unlocks it, or says
 * why not on the lock. True when it unlocked the chapter (the caller loads it again, open). A prefetch spends
 * nothing: the lock says "withheld", and the page asks again when it shows.
 */
export async function unlockOnArrival(
  request: Request,
  user: SessionUser,
  chapter: number,
  lock: Extract<Lock, { kind: "coins" }>,
  now: Date,
  meta: RequestMeta,
): Promise<boolean> {
  if (isPrefetch(request)) {
    if ((await autoUnlockSetting(user.id)).enabled) lock.auto = "withheld";
    return false;
  }
  const outcome = await autoUnlockOnArrival(user.id, chapter, now, meta);
  if (outcome === "unlocked") return true;
  if (outcome === "cap" || outcome === "insufficient-coins") lock.auto = outcome;
  return false;
}
