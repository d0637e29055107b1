import { and, eq, isNull } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapterUnlocks, feedTokens, users } from "#db/schema";
import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { excerptOfHtml } from "~/features/content/excerpt.server";
import { renderMarkdown } from "~/features/content/markdown.server";
import { readsAheadOf } from "~/features/reader/access.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { releaseTime } from "~/lib/clock.server";
import { getEnv } from "~/lib/env.server";
import { hashToken, randomToken } from "~/lib/tokens.server";
import { FEED_SIZE, newestFirst, textsOf, writeFeed } from "./releases.server";

/** The private feed's address for a token. */
export const privateFeedPath = (token: string) => `/feed/private/${token}`;

/**
 * A new private feed address for the reader (ADR 44): the token is shown once and only its hash is kept;
 * the reader's previous address, if any, stops working in the same statement.
 */
export async function createFeedToken(userId: number): Promise<string> {
  const token = randomToken();
  const tokenHash = hashToken(token);
  await db()
    .insert(feedTokens)
    .values({ userId, tokenHash })
    .onConflictDoUpdate({ target: feedTokens.userId, set: { tokenHash, createdAt: new Date() } });
  return token;
}

/** Turns the reader's private feed off: its address answers 404 from now on. */
export async function revokeFeedToken(userId: number): Promise<void> {
  await db().delete(feedTokens).where(eq(feedTokens.userId, userId));
}

export async function hasFeedToken(userId: number): Promise<boolean> {
  const [row] = await db()
    .select({ userId: feedTokens.userId })
    .from(feedTokens)
    .where(eq(feedTokens.userId, userId));
  return row !== undefined;
}

/**
 * The reader's private feed (ADR 44), found by its token (undefined: no such address, or the account is
 * suspended): the full text of the newest chapters this reader may read now — free ones, paid ones they
 * unlocked, unreleased ones their tier reads ahead, everything for an author — in their language. The same
 * rule as the chapter page (docs/product-rules.md, "Chapter access").
 */
export async function privateFeed(token: string, now = releaseTime()): Promise<string | undefined> {
  if (!/^[\w-]{20,100}$/.test(token)) return undefined;
  const [reader] = await db()
    .select({ id: users.id, role: users.role, language: users.language })
    .from(feedTokens)
    .innerJoin(users, eq(users.id, feedTokens.userId))
    .where(and(eq(feedTokens.tokenHash, hashToken(token)), isNull(users.suspendedAt)));
  if (!reader) return undefined;
  const [catalog, unlocked, ahead] = await Promise.all([
    getChapterCatalog(),
    db()
      .select({ id: chapterUnlocks.chapterId })
      .from(chapterUnlocks)
      .where(eq(chapterUnlocks.userId, reader.id)),
    readsAheadOf(reader.id, now),
  ]);
  const opened = new Set(unlocked.map((row) => row.id));
  const readable = catalog.published
    .filter((chapter) => {
      if (reader.role === "author") return true;
      const status = chapterStatus(chapter, now);
      return status === "free" || (status === "paid" && opened.has(chapter.id)) || ahead.has(chapter.number);
    })
    .sort(newestFirst)
    .slice(0, FEED_SIZE);
  const texts = await textsOf(readable.map((chapter) => chapter.id));
  const entries = readable.map((chapter) => {
    const content = renderMarkdown(texts.get(chapter.id) ?? "");
    return { chapter, description: excerptOfHtml(content), content };
  });
  const language = isLanguage(reader.language) ? reader.language : defaultLanguage;
  return writeFeed("atom", entries, language, { atom: `${getEnv().origin}${privateFeedPath(token)}` }, now);
}
