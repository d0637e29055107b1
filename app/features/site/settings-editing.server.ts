import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { legalPages, siteSettings } from "#db/schema";
import { digestOf } from "~/features/audit/digest.server";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { type LegalForm, type legalSlugs, type SiteForm, siteFields } from "./site-form";

type SiteRow = typeof siteSettings.$inferSelect;

/** A digest of the settings as they are: the form carries it, and a save names the settings it was made from. */
export function siteDigest(row: SiteRow): string {
  const values = Object.fromEntries(siteFields.map((field) => [field, row[field]]));
  return digestOf(values);
}

/** The settings as the form opens them, with their digest. */
export async function getSiteForEdit() {
  const [row] = await db().select().from(siteSettings).where(eq(siteSettings.id, 1));
  if (!row) throw new Error("Site settings are missing: import the content folder first");
  return {
    values: Object.fromEntries(siteFields.map((field) => [field, row[field]])),
    base: siteDigest(row),
  };
}

export type SiteSaveOutcome = { ok: true } | { ok: false; reason: "conflict" };

/**
 * Saves the settings made from the ones with digest `base`. The row is locked and its digest compared: a
 * save from settings changed since is a conflict (the author's form keeps what they typed). The audit log
 * gets the fields that changed, before and after; the content revision moves (trigger), so every page
 * shows the new settings within a second.
 */
export function saveSite(
  { base, ...input }: SiteForm,
  actor: Actor & { via: "admin" },
): Promise<SiteSaveOutcome> {
  return db().transaction(async (tx) => {
    const [current] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).for("update");
    if (!current || siteDigest(current) !== base) return { ok: false, reason: "conflict" };
    const changed = siteFields.filter((field) => current[field] !== input[field]);
    if (changed.length === 0) return { ok: true };
    await tx.update(siteSettings).set(input).where(eq(siteSettings.id, 1));
    // Of the about page's text, as of a chapter's, the log keeps only the size.
    const logged = (values: Pick<SiteRow, (typeof siteFields)[number]>) =>
      Object.fromEntries(
        changed.map((field) => [
          field,
          field === "aboutMd" ? { characters: values.aboutMd.length } : values[field],
        ]),
      );
    await recordAudit(tx, actor, {
      action: "site.update",
      subjectType: "site",
      subjectId: 1,
      before: logged(current),
      after: logged(input),
    });
    return { ok: true };
  });
}

type LegalRow = typeof legalPages.$inferSelect;
type LegalSlug = (typeof legalSlugs)[number];

const legalDigest = (row: LegalRow) => digestOf([row.title, row.bodyMd, row.updatedAt.toISOString()]);

/** A legal page as its form opens it (undefined for a page not imported), with its digest. */
export async function getLegalForEdit(slug: LegalSlug) {
  const [row] = await db().select().from(legalPages).where(eq(legalPages.slug, slug));
  if (!row) return undefined;
  return {
    values: { title: row.title, bodyMd: row.bodyMd, updatedAt: row.updatedAt.toISOString().slice(0, 10) },
    base: legalDigest(row),
  };
}

/** Saves a legal page made from the version with digest `base` (else a conflict), audited with its size. */
export function saveLegal(
  slug: LegalSlug,
  { base, title, bodyMd, updatedAt }: LegalForm,
  actor: Actor & { via: "admin" },
): Promise<SiteSaveOutcome | { ok: false; reason: "notFound" }> {
  return db().transaction(async (tx) => {
    const [current] = await tx.select().from(legalPages).where(eq(legalPages.slug, slug)).for("update");
    if (!current) return { ok: false, reason: "notFound" };
    if (legalDigest(current) !== base) return { ok: false, reason: "conflict" };
    const next = { title, bodyMd, updatedAt: new Date(`${updatedAt}T00:00:00Z`) };
    await tx.update(legalPages).set(next).where(eq(legalPages.slug, slug));
    const logged = (row: { title: string; bodyMd: string; updatedAt: Date }) => ({
      title: row.title,
      characters: row.bodyMd.length,
      updatedAt: row.updatedAt.toISOString().slice(0, 10),
    });
    await recordAudit(tx, actor, {
      action: "legal.update",
      subjectType: "legal",
      subjectId: slug,
      before: logged(current),
      after: logged(next),
    });
    return { ok: true };
  });
}
