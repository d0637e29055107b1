import { asc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { wikiPages } from "#db/schema";
import { violatedUniqueConstraint } from "~/lib/db-errors";
import { type Actor, recordAudit } from "./audit.server";
import { digestOf } from "./digest.server";
import type { WikiForm } from "./wiki-form";

type WikiRow = typeof wikiPages.$inferSelect;

/** A digest of a page as it is: the form carries it, and a save names the page it was made from. */
const digest = ({ id: _id, ...row }: WikiRow) => digestOf(row);

/** What the audit log keeps of a page: its fields, and of its text only the size. */
const logged = ({ id: _id, bodyMd, ...row }: Omit<WikiRow, "id"> & { id?: number }) => ({
  ...row,
  characters: bodyMd.length,
});

/** Every wiki page, by section and order, for the admin's list. */
export function listWikiPages() {
  return db()
    .select({
      id: wikiPages.id,
      section: wikiPages.section,
      slug: wikiPages.slug,
      title: wikiPages.title,
      sortOrder: wikiPages.sortOrder,
      revealsChapter: wikiPages.revealsChapter,
    })
    .from(wikiPages)
    .orderBy(asc(wikiPages.section), asc(wikiPages.sortOrder), asc(wikiPages.title));
}

/** A page as its form opens it, with its digest. */
export async function getWikiPageForEdit(id: number) {
  const [row] = await db().select().from(wikiPages).where(eq(wikiPages.id, id));
  return row && { row, base: digest(row) };
}

export type WikiSaveOutcome =
  | { ok: true; id: number }
  | { ok: false; reason: "notFound" | "conflict" | "slugTaken" };

/** A new page in its section; its slug must be free there (the unique index decides, races included). */
export async function createWikiPage(
  input: WikiForm,
  actor: Actor & { via: "admin" },
): Promise<WikiSaveOutcome> {
  const { base: _base, slug, order, ...fields } = input;
  if (!slug) return { ok: false, reason: "slugTaken" };
  try {
    return await db().transaction(async (tx) => {
      const [created] = await tx
        .insert(wikiPages)
        .values({ ...fields, slug, sortOrder: order })
        .returning();
      if (!created) throw new Error("no wiki page created");
      await recordAudit(tx, actor, {
        action: "wiki.create",
        subjectType: "wiki",
        subjectId: created.id,
        after: logged(created),
      });
      return { ok: true, id: created.id } as const;
    });
  } catch (error) {
    if (violatedUniqueConstraint(error) === "wiki_pages_section_slug")
      return { ok: false, reason: "slugTaken" };
    throw error;
  }
}

/**
 * Saves a page made from the version with digest `base`: the row is locked and compared, and a save from
 * a page changed since is a conflict. Its slug stays (links to it keep working); its section may change.
 */
export async function saveWikiPage(
  id: number,
  input: WikiForm,
  actor: Actor & { via: "admin" },
): Promise<WikiSaveOutcome> {
  const { base, slug: _slug, order, ...fields } = input;
  try {
    return await db().transaction(async (tx) => {
      const [current] = await tx.select().from(wikiPages).where(eq(wikiPages.id, id)).for("update");
      if (!current) return { ok: false, reason: "notFound" } as const;
      if (digest(current) !== base) return { ok: false, reason: "conflict" } as const;
      const [saved] = await tx
        .update(wikiPages)
        .set({ ...fields, sortOrder: order })
        .where(eq(wikiPages.id, id))
        .returning();
      if (!saved) throw new Error(`wiki page ${id} vanished under its lock`);
      await recordAudit(tx, actor, {
        action: "wiki.update",
        subjectType: "wiki",
        subjectId: id,
        before: logged(current),
        after: logged(saved),
      });
      return { ok: true, id } as const;
    });
  } catch (error) {
    if (violatedUniqueConstraint(error) === "wiki_pages_section_slug")
      return { ok: false, reason: "slugTaken" };
    throw error;
  }
}

/** Deletes a page (audited with what it was). */
export function deleteWikiPage(id: number, actor: Actor & { via: "admin" }): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [gone] = await tx.delete(wikiPages).where(eq(wikiPages.id, id)).returning();
    if (!gone) return false;
    await recordAudit(tx, actor, {
      action: "wiki.delete",
      subjectType: "wiki",
      subjectId: id,
      before: logged(gone),
    });
    return true;
  });
}
