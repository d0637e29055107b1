import { and, eq, gte, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { autoUnlockSettings, chapterUnlocks, users } from "#db/schema";
import type { RequestMeta } from "~/lib/context";
import { parseWholeNumber } from "~/lib/parse";
import { forSale, unlockIn } from "./unlock.server";

/** The daily cap a reader chooses (ADR 90), and the one offered first. */
export const AUTO_UNLOCK_CAP = { min: 1, max: 50, default: 5 } as const;

export type AutoUnlockSetting = { enabled: boolean; dailyCap: number; confirmed: boolean };

/** Why reaching a locked chapter did not unlock it (shown on the locked page), or that it did. */
export type AutoUnlockOutcome = "unlocked" | "off" | "cap" | "insufficient-coins" | "not-for-sale";

/** The reader's setting: off, with the default cap, until they turn it on. */
export async function autoUnlockSetting(userId: number): Promise<AutoUnlockSetting> {
  const [row] = await db()
    .select({
      enabled: autoUnlockSettings.enabled,
      dailyCap: autoUnlockSettings.dailyCap,
      confirmedAt: autoUnlockSettings.confirmedAt,
    })
    .from(autoUnlockSettings)
    .where(eq(autoUnlockSettings.userId, userId));
  return autoUnlockFrom(row);
}

/** The setting its row says, or the default without one. */
export const autoUnlockFrom = (
  row: { enabled: boolean; dailyCap: number; confirmedAt: unknown } | undefined,
): AutoUnlockSetting => ({
  enabled: row?.enabled ?? false,
  dailyCap: row?.dailyCap ?? AUTO_UNLOCK_CAP.default,
  confirmed: Boolean(row?.confirmedAt),
});

/** The daily cap from a form's field, or undefined when it is not a whole number from 1 to 50. */
export function parseDailyCap(value: unknown): number | undefined {
  return parseWholeNumber(value, AUTO_UNLOCK_CAP.min, AUTO_UNLOCK_CAP.max);
}

export type SaveOutcome = "saved" | "confirm";

/**
 * Saves the reader's choice. Turning it on the first time needs `confirmed` (the reader saw what it spends):
 * without it nothing is saved and the answer is "confirm". The confirmation is kept when it is turned off.
 */
export async function saveAutoUnlock(
  userId: number,
  choice: { enabled: boolean; dailyCap: number; confirmed: boolean },
): Promise<SaveOutcome> {
  if (choice.enabled && !choice.confirmed && !(await autoUnlockSetting(userId)).confirmed) return "confirm";
  const confirmedAt = choice.enabled && choice.confirmed ? new Date() : undefined;
  await db()
    .insert(autoUnlockSettings)
    .values({ userId, enabled: choice.enabled, dailyCap: choice.dailyCap, confirmedAt })
    .onConflictDoUpdate({
      target: autoUnlockSettings.userId,
      set: {
        enabled: choice.enabled,
        dailyCap: choice.dailyCap,
        updatedAt: new Date(),
        confirmedAt: sql`coalesce(${autoUnlockSettings.confirmedAt}, ${confirmedAt ?? null}::timestamptz)`,
      },
    });
  return "saved";
}

/**
 * A reader reached a coin-locked chapter (opened it: never a prefetch, which the caller tells apart): with
 * automatic unlocking on, it is unlocked when their coins cover it and they are under their daily cap. The
 * cap counts the reader's automatic unlocks since the start of their day in their time zone (users.time_zone,
 * as their reading days). The reader's row is locked first, so two chapters reached at once are counted one
 * after the other: the cap is exact, and the ledger's key charges a chapter once.
 */
export async function autoUnlockOnArrival(
  userId: number,
  chapterNumber: number,
  now: Date,
  meta?: RequestMeta,
): Promise<AutoUnlockOutcome> {
  const setting = await autoUnlockSetting(userId);
  if (!setting.enabled) return "off";
  const chapter = await forSale(db(), chapterNumber, now);
  if (!chapter) return "not-for-sale";
  return db().transaction(async (tx) => {
    const [reader] = await tx
      .select({ balance: users.coinBalance, timeZone: users.timeZone })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!reader) return "not-for-sale";
    const [today] = await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(chapterUnlocks)
      .where(
        and(
          eq(chapterUnlocks.userId, userId),
          eq(chapterUnlocks.auto, true),
          gte(
            chapterUnlocks.createdAt,
            sql`date_trunc('day', ${now.toISOString()}::timestamptz at time zone ${reader.timeZone}) at time zone ${reader.timeZone}`,
          ),
        ),
      );
    if ((today?.n ?? 0) >= setting.dailyCap) return "cap";
    if (reader.balance < chapter.coinsRequired) return "insufficient-coins";
    const result = await unlockIn(tx, userId, chapterNumber, chapter, meta, { at: now });
    return result.ok ? "unlocked" : "not-for-sale";
  });
}
