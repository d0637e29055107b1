import { eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { contentRevision, users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { clockOffsetMs, moveReadingOn, releaseTime, setTestClock } from "~/lib/clock.server";
import { refreshContentRevision } from "./revision.server";

/**
 * Moves the release time of this server (TEST_CLOCK=true only; ADR 39) to `time`, or back to the real time.
 * The content revision moves with it, so no kept page rendered at the old time is served at the new one
 * (a page kept before a release expires at that release, but one kept "in the future" must not outlive a
 * clock set back). Audited like every admin change.
 */
export async function moveReleaseClock(time: Date | undefined, actor: Actor): Promise<void> {
  const before = releaseTime().toISOString();
  setTestClock(time);
  await db().transaction(async (tx) => {
    await tx
      .update(contentRevision)
      .set({ revision: sql`${contentRevision.revision} + 1` })
      .where(eq(contentRevision.id, 1));
    await recordAudit(tx, actor, {
      action: "clock.set",
      subjectType: "clock",
      subjectId: "release",
      before: { releaseTime: before },
      after: { releaseTime: releaseTime().toISOString(), offsetMs: clockOffsetMs() },
    });
  });
  await refreshContentRevision();
}

/**
 * Moves one reader's reading time on by `seconds` (TEST_CLOCK=true only; ADR 105): their next progress write
 * counts as if that much more time had passed since their last (ADR 58), without a test waiting it out. Nothing
 * else moves: not the release time, no other reader, no kept page. Audited. False for an unknown e-mail.
 */
export async function moveReaderReading(email: string, seconds: number, actor: Actor): Promise<boolean> {
  const readerId = await db().transaction(async (tx) => {
    const [reader] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
    if (!reader) return undefined;
    await recordAudit(tx, actor, {
      action: "clock.reading",
      subjectType: "user",
      subjectId: String(reader.id),
      after: { secondsOn: seconds },
    });
    return reader.id;
  });
  // Moved once the audit entry is in: a failed write moves nothing.
  if (readerId === undefined) return false;
  moveReadingOn(readerId, seconds * 1000);
  return true;
}
