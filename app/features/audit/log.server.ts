import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { db } from "#db/client.server";
import { auditLog, users } from "#db/schema";

export type Executor = Pick<ReturnType<typeof db>, "insert">;

/**
 * Who made a change: an author on a page of the admin, the operator at the command line, or an account's
 * owner about their own sign-in (a second factor enrolled, removed, used or failed: ADR 65).
 */
export type Actor = { via: "admin" | "account"; userId: number } | { via: "cli" };

export type AuditEntry = {
  action: string;
  subjectType: string;
  subjectId: string | number;
  before?: unknown;
  after?: unknown;
};

/** Records a change, in the transaction that makes it (`tx`), so there is never one without the other. */
export async function recordAudit(tx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.via === "cli" ? null : actor.userId,
    via: actor.via,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: String(entry.subjectId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** The log, newest first, a page at a time (`before`: the last id seen), filtered by action or subject. */
export async function listAudit(filter: { action?: string; subjectType?: string; before?: number }) {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.subjectType) conditions.push(eq(auditLog.subjectType, filter.subjectType));
  if (filter.before) conditions.push(lt(auditLog.id, filter.before));
  const rows = await db()
    .select({
      id: auditLog.id,
      via: auditLog.via,
      actor: users.username,
      action: auditLog.action,
      subjectType: auditLog.subjectType,
      subjectId: auditLog.subjectId,
      before: auditLog.before,
      after: auditLog.after,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  return {
    entries: rows
      .slice(0, AUDIT_PAGE_SIZE)
      .map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    next: rows.length > AUDIT_PAGE_SIZE ? rows[AUDIT_PAGE_SIZE - 1]?.id : undefined,
  };
}
