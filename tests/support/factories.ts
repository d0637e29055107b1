import { eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, membershipGrants, supporters, users, volumes } from "#db/schema";
import { createAccount } from "~/features/auth/commands.server";
import { createSession } from "~/features/auth/session.server";
import { book } from "~/features/coins/ledger.server";
import { unique } from "./unique";

/**
 * Test data made with the app's own commands, so that a test states the figures it asserts instead of
 * reading them off the demo content (which an author may change at any time). They write to the
 * process-wide database that `openTestDatabase` set.
 */

export type TestReader = { id: number; username: string; email: string; password: string; cookie: string };

/** A new account with its welcome coins, signed in: `cookie` is the session's `name=value` pair. */
export async function createReader({
  prefix = "reader",
  password = "secret1",
  remember = false,
}: {
  prefix?: string;
  password?: string;
  remember?: boolean;
} = {}): Promise<TestReader> {
  const username = unique(prefix);
  const email = `${username}@example.com`;
  const id = await createAccount({ username, email, password });
  const cookie = (await createSession(id, { remember })).split(";")[0] ?? "";
  return { id, username, email, password, cookie };
}

/** Books `coins` to the reader through the ledger, as an operator's adjustment. */
export async function grantCoins(userId: number, coins: number): Promise<void> {
  await db().transaction((tx) =>
    book(tx, { userId, delta: coins, reason: "admin", idempotencyKey: unique(`test-grant:${userId}:`) }),
  );
}

export async function coinBalance(userId: number): Promise<number> {
  const [row] = await db().select({ balance: users.coinBalance }).from(users).where(eq(users.id, userId));
  return row?.balance ?? 0;
}

/** A membership of `days` granted now (as a purchase with membership days grants one). */
export async function grantMembership(userId: number, days: number): Promise<void> {
  await db().insert(membershipGrants).values({ userId, days, grantedAt: new Date() });
}

/** A supporter of the fundraiser, given now; returns the supporter's name. */
export async function addSupporter(amountCents: number): Promise<string> {
  const name = unique("Supporter ");
  await db().insert(supporters).values({ name, tier: "Supporter", amountCents, supportedAt: new Date() });
  return name;
}

/**
 * A published chapter after the last one, in the last volume: released (a second ago) unless `releaseAt`
 * says otherwise. Returns its number.
 */
export async function createChapter({
  title = unique("A Chapter Made For A Test "),
  coinsRequired = 0,
  releaseAt = new Date(Date.now() - 1000),
  body = "The first paragraph.\n\nThe second paragraph.",
}: {
  title?: string;
  coinsRequired?: number;
  releaseAt?: Date;
  body?: string;
} = {}): Promise<number> {
  const [last] = await db()
    .select({ number: sql<number>`coalesce(max(${chapters.number}), 0)`.mapWith(Number) })
    .from(chapters);
  const [volume] = await db()
    .select({ id: volumes.id })
    .from(volumes)
    .orderBy(sql`${volumes.number} desc`)
    .limit(1);
  if (!volume) throw new Error("createChapter needs a volume (open the database with its content)");
  const number = (last?.number ?? 0) + 1;
  await db()
    .insert(chapters)
    .values({
      number,
      volumeId: volume.id,
      title,
      bodyMd: body,
      wordCount: body.split(/\s+/).filter(Boolean).length,
      releaseAt,
      coinsRequired,
    });
  return number;
}
