import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { db } from "#db/client.server";
import { userAchievements } from "#db/schema";
import { emptyProgress } from "~/features/reader/progress";
import { action as progressAction } from "~/routes/reader/progress";
import { holdClock, releaseClock } from "./clock";
import { type Driver, openTestDatabase } from "./database";

/** What POST /reader/progress answers, with its status (200 unless the action set another). */
export type ProgressAnswer = {
  status: number;
  saved?: number;
  refused?: number[];
  earned?: string[];
  view?: string;
  error?: string;
};

/**
 * POST /reader/progress as the browser sends it: `body` as JSON (a string is sent as it is), with the
 * `cookie` header (a reader's session, `tz`, `lang`) and the client's network `address` (the rate limit's
 * key) when given.
 */
export async function sendProgress(
  body: unknown,
  { cookie, address }: { cookie?: string; address?: string } = {},
): Promise<ProgressAnswer> {
  const request = new Request("http://localhost/reader/progress", {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...(cookie && { Cookie: cookie }) },
  });
  const result = (await progressAction({
    request,
    params: {},
    context: address ? { ip: address } : {},
  } as never)) as { init?: ResponseInit; data?: ProgressAnswer } & ProgressAnswer;
  return { ...(result.data ?? result), status: result.init?.status ?? 200 };
}

/** A chapter's progress after `readingTime` seconds' reading; at its end (completed) with `end`. */
export const progressAt = (readingTime: number, end = false) => ({
  ...emptyProgress(),
  readingTime,
  ...(end ? { scrollPosition: 1, completionPercentage: 100, completed: true } : {}),
});

/** The keys of the achievements a reader has earned, sorted. */
export async function earnedKeys(userId: number): Promise<string[]> {
  const rows = await db()
    .select({ key: userAchievements.key })
    .from(userAchievements)
    .where(eq(userAchievements.userId, userId));
  return rows.map((row) => row.key).sort();
}

/**
 * A test database on `driver` for the enclosing `describe`, with the app's clock held still (the reading rule
 * counts no more reading than the server's clock saw pass: ADR 58); closed and released after.
 */
export function useHeldClockDatabase(driver: Driver): void {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    holdClock();
  });
  afterAll(async () => {
    releaseClock();
    await handle.close();
  });
}
