import { db } from "#db/client.server";
import { creditsPage } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { readAcknowledgements } from "./queries.server";

/**
 * The author's acknowledgements from the admin ("credits.update" in the audit log, with of the text only its
 * size before and after). The one row is written by an upsert, so two saves at once leave one row.
 */
export async function saveAcknowledgements(text: string, actor: Actor): Promise<void> {
  const before = await readAcknowledgements();
  await db().transaction(async (tx) => {
    await tx
      .insert(creditsPage)
      .values({ id: 1, acknowledgementsMd: text, updatedAt: new Date() })
      .onConflictDoUpdate({
        target: creditsPage.id,
        set: { acknowledgementsMd: text, updatedAt: new Date() },
      });
    await recordAudit(tx, actor, {
      action: "credits.update",
      subjectType: "credits",
      subjectId: 1,
      before: { characters: before.length },
      after: { characters: text.length },
    });
  });
}
