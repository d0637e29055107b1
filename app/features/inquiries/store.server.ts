import { and, desc, eq, lt, ne, type SQL, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { type InquiryStatus, inquiries } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import type { Language } from "~/i18n/config";
import type { InquiryView } from "./admin-form";
import type { Inquiry } from "./schema";

/** Keeps a sent inquiry for the admin (ADR 59), as new; its id, so a send that fails can take it back. */
export async function keepInquiry(
  inquiry: Inquiry,
  product: { id: number; name: string },
  language: Language,
): Promise<number> {
  const [row] = await db()
    .insert(inquiries)
    .values({ ...inquiry, productId: product.id, productName: product.name, language })
    .returning({ id: inquiries.id });
  if (!row) throw new Error("the inquiry was not kept");
  return row.id;
}

/** Takes back an inquiry the author never received (the mail server refused it): the sender sends it again. */
export async function forgetInquiry(id: number): Promise<void> {
  await db().delete(inquiries).where(eq(inquiries.id, id));
}

export const INQUIRY_PAGE_SIZE = 25;

/** The admin's list: newest first, all or one status, 25 a page (`before`: the last id seen). */
export async function listInquiries(filter: { view: InquiryView; before?: number }) {
  const conditions: SQL[] = [];
  if (filter.view !== "all") conditions.push(eq(inquiries.status, filter.view));
  if (filter.before) conditions.push(lt(inquiries.id, filter.before));
  const rows = await db()
    .select()
    .from(inquiries)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(inquiries.id))
    .limit(INQUIRY_PAGE_SIZE + 1);
  return {
    inquiries: rows.slice(0, INQUIRY_PAGE_SIZE).map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      answeredAt: row.answeredAt?.toISOString() ?? null,
    })),
    next: rows.length > INQUIRY_PAGE_SIZE ? rows[INQUIRY_PAGE_SIZE - 1]?.id : undefined,
  };
}

/**
 * Marks an inquiry answered (or new again), audited in the same transaction. The update moves only a row
 * not already in that status, so two authors marking it at once make one change and one audit entry; the
 * other finds it done and changes nothing.
 */
export async function setInquiryStatus(
  id: number,
  status: InquiryStatus,
  actor: Actor,
): Promise<{ ok: true; changed: boolean } | { ok: false; reason: "notFound" }> {
  return db().transaction(async (tx) => {
    const [changed] = await tx
      .update(inquiries)
      .set({ status, answeredAt: status === "answered" ? sql`now()` : null })
      .where(and(eq(inquiries.id, id), ne(inquiries.status, status)))
      .returning({ id: inquiries.id });
    if (!changed) {
      const [exists] = await tx.select({ id: inquiries.id }).from(inquiries).where(eq(inquiries.id, id));
      return exists ? { ok: true, changed: false } : { ok: false, reason: "notFound" };
    }
    await recordAudit(tx, actor, {
      action: status === "answered" ? "inquiry.answered" : "inquiry.reopened",
      subjectType: "inquiry",
      subjectId: id,
      before: { status: status === "answered" ? "new" : "answered" },
      after: { status },
    });
    return { ok: true, changed: true };
  });
}
