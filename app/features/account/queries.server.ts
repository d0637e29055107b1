import { asc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { coinLedger, oauthIdentities, sessions, users } from "#db/schema";

export async function getLinkedProviders(userId: number): Promise<string[]> {
  const rows = await db()
    .select({ provider: oauthIdentities.provider })
    .from(oauthIdentities)
    .where(eq(oauthIdentities.userId, userId))
    .orderBy(asc(oauthIdentities.provider));
  return rows.map((row) => row.provider);
}

/** Everything the site holds about a reader, for "Download my data". No secrets: no password or token hashes. */
export async function exportAccountData(userId: number) {
  const [user] = await db()
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      role: users.role,
      coinBalance: users.coinBalance,
      language: users.language,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  const [ledger, activeSessions, identities] = await Promise.all([
    db()
      .select({
        delta: coinLedger.delta,
        reason: coinLedger.reason,
        reference: coinLedger.reference,
        createdAt: coinLedger.createdAt,
      })
      .from(coinLedger)
      .where(eq(coinLedger.userId, userId))
      .orderBy(asc(coinLedger.createdAt)),
    db()
      .select({
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        ip: sessions.ip,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId)),
    db()
      .select({
        provider: oauthIdentities.provider,
        displayName: oauthIdentities.displayName,
        createdAt: oauthIdentities.createdAt,
      })
      .from(oauthIdentities)
      .where(eq(oauthIdentities.userId, userId)),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    account: user,
    coinLedger: ledger,
    sessions: activeSessions,
    linkedAccounts: identities,
  };
}
