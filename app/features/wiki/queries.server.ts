import { and, asc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { type WikiSection, wikiPages, wikiSections } from "#db/schema";

const listColumns = {
  section: wikiPages.section,
  slug: wikiPages.slug,
  title: wikiPages.title,
  summary: wikiPages.summary,
  imageUrl: wikiPages.imageUrl,
};

export async function listWikiPages(section?: WikiSection) {
  return db()
    .select(listColumns)
    .from(wikiPages)
    .where(section ? eq(wikiPages.section, section) : undefined)
    .orderBy(asc(wikiPages.section), asc(wikiPages.sortOrder), asc(wikiPages.title));
}

export async function getWikiPage(section: WikiSection, slug: string) {
  const [page] = await db()
    .select()
    .from(wikiPages)
    .where(and(eq(wikiPages.section, section), eq(wikiPages.slug, slug)));
  return page;
}

/** Every section in the wiki's order, each with its pages (an empty section is listed too). */
export async function listWikiSections() {
  const pages = await listWikiPages();
  return wikiSections.map((section) => ({
    section,
    pages: pages.filter((page) => page.section === section),
  }));
}
