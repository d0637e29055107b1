import { parseFeed } from "@rowanmanning/feed-parser";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { chapters, feedTokens, users } from "#db/schema";
import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { renderMarkdown } from "~/features/content/markdown.server";
import { createFeedToken, hasFeedToken, privateFeed, revokeFeedToken } from "~/features/feeds/private.server";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantCoins, grantMembership } from "../support/factories";

/** A reader's private feed (ADR 44): the full text of what they may read, by a token they can replace. */
describe("the private feed", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("pglite");
  });
  afterAll(() => handle.close());

  const textOf = async (number: number) =>
    renderMarkdown(
      (
        await handle.db.select({ bodyMd: chapters.bodyMd }).from(chapters).where(eq(chapters.number, number))
      )[0]?.bodyMd ?? "",
    );

  it("carries the full text of free and unlocked chapters only; a new address makes the old one 404", async () => {
    const reader = await createReader({ prefix: "feedreader" });
    expect(await hasFeedToken(reader.id)).toBe(false);
    const token = await createFeedToken(reader.id);
    expect(await hasFeedToken(reader.id)).toBe(true);
    const now = new Date();
    const catalog = await getChapterCatalog();
    const [firstPaid, secondPaid] = catalog.published.filter(
      (chapter) => chapterStatus(chapter, now) === "paid",
    );
    if (!firstPaid || !secondPaid) throw new Error("the demo has two released paid chapters");
    await grantCoins(reader.id, firstPaid.coinsRequired);
    expect(await unlockChapter(reader.id, firstPaid.number)).toMatchObject({ ok: true });

    const xml = (await privateFeed(token, now)) ?? "";
    const feed = parseFeed(xml);
    const urls = feed.items.map((item) => item.url?.replace("http://localhost:3000", ""));
    expect(urls).toContain("/chapter/1");
    expect(urls).toContain(`/chapter/${firstPaid.number}`);
    expect(urls).not.toContain(`/chapter/${secondPaid.number}`);
    for (const chapter of catalog.published.filter((one) => chapterStatus(one, now) === "locked"))
      expect(urls).not.toContain(`/chapter/${chapter.number}`);
    const unlocked = feed.items.find((item) => item.url?.endsWith(`/chapter/${firstPaid.number}`));
    expect(unlocked?.content).toBe(await textOf(firstPaid.number));

    const renewed = await createFeedToken(reader.id);
    expect(await privateFeed(token, now)).toBeUndefined();
    expect(await privateFeed(renewed, now)).toContain(`/chapter/${firstPaid.number}`);
    await revokeFeedToken(reader.id);
    expect(await privateFeed(renewed, now)).toBeUndefined();
  });

  it("reads ahead as the reader's tier does, and says nothing for a suspended account or a made-up token", async () => {
    const member = await createReader({ prefix: "feedmember" });
    await grantMembership(member.id, 400);
    const token = await createFeedToken(member.id);
    const now = new Date();
    const scheduled = (await getChapterCatalog()).published.filter(
      (chapter) => chapterStatus(chapter, now) === "locked",
    );
    expect(scheduled.length).toBeGreaterThan(0);
    const urls = parseFeed((await privateFeed(token, now)) ?? "").items.map((item) => item.url);
    // 400 days bought make the reader an Observer at least: three unreleased chapters read early.
    expect(urls).toContain(`http://localhost:3000/chapter/${scheduled[0]?.number}`);
    await handle.db
      .update(users)
      .set({ suspendedAt: new Date() })
      .where(and(eq(users.id, member.id)));
    expect(await privateFeed(token, now)).toBeUndefined();
    for (const made of ["", "x", "a".repeat(43), "../../etc/passwd", "%00".repeat(20)])
      expect(await privateFeed(made, now)).toBeUndefined();
  });
});

describe.runIf(drivers.includes("postgres"))("the private feed under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("makes four addresses at once for one reader: one row, and only the last one made works", async () => {
    const reader = await createReader({ prefix: "feedrace" });
    const tokens = await Promise.all([0, 1, 2, 3].map(() => createFeedToken(reader.id)));
    expect(await handle.db.select().from(feedTokens).where(eq(feedTokens.userId, reader.id))).toHaveLength(1);
    const answers = await Promise.all(tokens.map((token) => privateFeed(token)));
    expect(answers.filter((answer) => answer !== undefined)).toHaveLength(1);
  });
});
