import { asc, eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";

export type RoleOutcome = "granted" | "revoked" | "unchanged" | "unknownEmail" | "lastAuthor";

/**
 * Makes the account with this e-mail an author (`grant`) or a reader again. The last author cannot be
 * revoked: the author rows are locked before they are counted, so two revocations at once cannot each see
 * the other as the one who stays. The change is audited in its transaction; the account's sessions see it
 * on their next request (the role is read with the session).
 */
export function setAuthor(email: string, grant: boolean, actor: Actor): Promise<RoleOutcome> {
  return db().transaction(async (tx) => {
    const authors = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, "author"))
      .orderBy(asc(users.id))
      .for("update");
    const [account] = await tx
      .select({ id: users.id, role: users.role, username: users.username })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
      .for("update");
    if (!account) return "unknownEmail";
    const role = grant ? "author" : "reader";
    if (account.role === role) return "unchanged";
    if (!grant && authors.length <= 1) return "lastAuthor";
    await tx.update(users).set({ role }).where(eq(users.id, account.id));
    await recordAudit(tx, actor, {
      action: grant ? "author.grant" : "author.revoke",
      subjectType: "user",
      subjectId: account.id,
      before: { username: account.username, role: account.role },
      after: { username: account.username, role },
    });
    return grant ? "granted" : "revoked";
  });
}

/** The authors, for the admin's list. */
export function listAuthors() {
  return db()
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(eq(users.role, "author"))
    .orderBy(asc(users.username));
}
