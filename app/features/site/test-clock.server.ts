import { eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { contentRevision } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { clockOffsetMs, releaseTime, setTestClock } from "~/lib/clock.server";
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
