import { asc } from "drizzle-orm";
import { db } from "#db/client.server";
import { wikiPages } from "#db/schema";
import { type AdminActor, rowEditing } from "~/features/audit/row-editing.server";
import type { WikiForm } from "./wiki-form";

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

const written = ({ base: _base, slug: _slug, order, ...fields }: WikiForm) => ({
  ...fields,
  sortOrder: order,
});

/**
 * Wiki pages from the admin ("wiki.create|update|delete" in the audit log, with of the text only its size).
 * A new page's slug must be free in its section; it stays when the page is saved (links keep working), while
 * its section may change.
 */
const pages = rowEditing(
  {
    subject: "wiki",
    nameOf: (row) => row.title,
    unique: "wiki_pages_section_slug",
    idOf: (row) => row.id,
    logged: ({ id: _id, bodyMd, ...row }) => ({ ...row, characters: bodyMd.length }),
    digested: ({ id: _id, ...row }) => row,
  },
  wikiPages,
  wikiPages.id,
  {
    written,
    created: (input: WikiForm) => (input.slug ? { ...written(input), slug: input.slug } : undefined),
  },
);

export const getWikiPageForEdit = (id: number) => pages.forEdit(id);
export const createWikiPage = (input: WikiForm, actor: AdminActor) => pages.create(input, actor);
export const saveWikiPage = (id: number, input: WikiForm, actor: AdminActor) => pages.save(id, input, actor);
export const deleteWikiPage = (id: number, actor: AdminActor) => pages.remove(id, actor);
