import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { legalPages, siteSettings } from "#db/schema";

export async function getSiteSettings() {
  const [settings] = await db().select().from(siteSettings).where(eq(siteSettings.id, 1));
  if (!settings) throw new Error("Site settings are missing: import the content folder first");
  return settings;
}

export async function getLegalPage(slug: "terms" | "privacy") {
  const [page] = await db().select().from(legalPages).where(eq(legalPages.slug, slug));
  return page;
}
