import { asc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { oauthIdentities } from "#db/schema";

export async function getLinkedProviders(userId: number): Promise<string[]> {
  const rows = await db()
    .select({ provider: oauthIdentities.provider })
    .from(oauthIdentities)
    .where(eq(oauthIdentities.userId, userId))
    .orderBy(asc(oauthIdentities.provider));
  return rows.map((row) => row.provider);
}
