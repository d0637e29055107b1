import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { legalPages, siteSettings } from "#db/schema";
import { memoByRevision } from "./revision.server";

/** The site's settings, read once per content revision (every page shows the title). */
export const getSiteSettings = memoByRevision(async () => {
  const [settings] = await db().select().from(siteSettings).where(eq(siteSettings.id, 1));
  if (!settings) throw new Error("Site settings are missing: import the content folder first");
  return settings;
});

export async function getLegalPage(slug: "terms" | "privacy") {
  const [page] = await db().select().from(legalPages).where(eq(legalPages.slug, slug));
  return page;
}
