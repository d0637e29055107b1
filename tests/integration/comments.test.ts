import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { chapters, commentHearts, comments, users } from "#db/schema";
import { unlockChapter } from "~/features/coins/unlock.server";
import { postComment, reportComment, setHeart } from "~/features/comments/commands.server";
import { COMMENT_LIMITS } from "~/features/comments/limits";
import { listForModeration, moderateComment, setCommentBan } from "~/features/comments/moderation.server";
import { commentCounts } from "~/features/comments/queries.server";
import type { CommentsPage } from "~/features/comments/types";
import { action, loader } from "~/routes/chapter-comments";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createChapter, createReader, grantCoins, type TestReader } from "../support/factories";

/** Calls the comments route as React Router does: a reader's cookie, or none (a visitor). */
// biome-ignore lint/suspicious/noExplicitAny: routes are called with the subset of arguments they read
type Route = (args: any) => Promise<unknown>;

async function call(route: Route, path: string, who?: TestReader, form?: Record<string, string>) {
  const headers = new Headers(who ? { cookie: who.cookie } : {});
  const init = form ? { method: "POST", headers, body: new URLSearchParams(form) } : { headers };
  const id = /\/chapter\/(\d+)/.exec(path)?.[1] ?? "";
  try {
    const answer = (await route({
      request: new Request(`http://localhost${path}`, init),
      params: { id },
      context: { documentRequest: false },
    })) as { data?: unknown; init?: { status?: number; headers?: Record<string, string> } } | Response;
    if (answer instanceof Response) return { status: answer.status, data: undefined };
    return { status: answer.init?.status ?? 200, data: answer.data, headers: answer.init?.headers };
  } catch (error) {
    return { status: (error as { init?: { status?: number } }).init?.status ?? 500, data: undefined };
  }
}

const page = async (path: string, who?: TestReader) => (await call(loader, path, who)).data as CommentsPage;
const post = (number: number, who: TestReader, form: Record<string, string>) =>
  call(action, `/chapter/${number}/comments`, who, form);

/** A new released chapter (free, or for `coins`): its number and id. */
async function made(coins: number) {
  const number = await createChapter({ coinsRequired: coins });
  const [row] = await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number));
  return { number, id: row?.id ?? 0 };
}

/** Chapter comments (ADR 47), through the route a reader's browser calls. */
describe.each(drivers)("chapter comments on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  const ageAccount = (id: number) =>
    handle.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(users.id, id));

  it("two readers comment and reply on chapter 1; a visitor reads both, the author's reply carries its badge", async () => {
    const chapter = await made(0);
    const [ana, ben] = [await createReader({ prefix: "ana" }), await createReader({ prefix: "ben" })];
    const author = await createReader({ prefix: "writer" });
    await handle.db.update(users).set({ role: "author" }).where(eq(users.id, author.id));

    expect((await post(chapter.number, ana, { intent: "post", body: "The *bell* scene!" })).status).toBe(200);
    const [first] = (await page(`/chapter/${chapter.number}/comments`)).comments;
    if (!first) throw new Error("the comment is listed");
    const reply = { intent: "post", body: "Agreed.", parent: String(first.id) };
    expect((await post(chapter.number, ben, reply)).status).toBe(200);
    expect((await post(chapter.number, author, { ...reply, body: "Thank you both" })).status).toBe(200);
    // A reply to a reply is refused: one level of threading.
    const replyId = (await page(`/chapter/${chapter.number}/comments`)).comments[0]?.replies[0]?.id;
    expect((await post(chapter.number, ben, { ...reply, parent: String(replyId) })).status).toBe(409);

    const visitor = await page(`/chapter/${chapter.number}/comments`);
    expect(visitor.total).toBe(3);
    expect(visitor.viewer).toEqual({ signedIn: false });
    expect(visitor.comments).toHaveLength(1);
    expect(visitor.comments[0]).toMatchObject({
      writer: ana.username,
      html: "<p>The <em>bell</em> scene!</p>",
    });
    expect(visitor.comments[0]?.replies.map((one) => [one.writer, one.byAuthor])).toEqual([
      [ben.username, false],
      [author.username, true],
    ]);
    expect(visitor.comments[0]?.replies.every((one) => !one.mine && !one.hearted && !one.editableMd)).toBe(
      true,
    );
    expect((await commentCounts())[chapter.number]).toBe(3);
  });

  it("a locked chapter's comments are as locked as its text, to read and to post, until unlocked", async () => {
    const chapter = await made(2);
    const reader = await createReader({ prefix: "locked" });
    const path = `/chapter/${chapter.number}/comments`;
    expect((await call(loader, path)).status).toBe(403);
    expect((await call(loader, path, reader)).status).toBe(403);
    expect(await post(chapter.number, reader, { intent: "post", body: "hello" })).toMatchObject({
      status: 403,
      data: { error: "comments.errors.locked" },
    });
    expect((await call(loader, "/chapter/999999/comments")).status).toBe(404);
    expect((await call(loader, "/chapter/abc/comments")).status).toBe(404);
    await grantCoins(reader.id, 2);
    expect(await unlockChapter(reader.id, chapter.number)).toMatchObject({ ok: true });
    expect((await post(chapter.number, reader, { intent: "post", body: "hello" })).status).toBe(200);
    expect((await page(path, reader)).comments[0]).toMatchObject({ mine: true, html: "<p>hello</p>" });
    // Still locked to a visitor: their page says nothing of it.
    expect((await call(loader, path)).status).toBe(403);
  });

  it("refuses bad input with its message and keeps the text; a script or a javascript: link renders inert", async () => {
    const chapter = await made(0);
    const reader = await createReader({ prefix: "input" });
    await ageAccount(reader.id);
    const long = "x".repeat(COMMENT_LIMITS.bodyMax + 1);
    expect(await post(chapter.number, reader, { intent: "post", body: long })).toMatchObject({
      status: 400,
      data: { error: "comments.errors.tooLong", body: long },
    });
    expect(await post(chapter.number, reader, { intent: "post", body: "   " })).toMatchObject({
      status: 400,
      data: { error: "comments.errors.empty" },
    });
    expect((await post(chapter.number, reader, { intent: "shout", body: "x" })).status).toBe(400);
    const visitor = await createReader({ prefix: "nosession" });
    expect(
      (
        await call(
          action,
          `/chapter/${chapter.number}/comments`,
          { ...visitor, cookie: "" },
          { intent: "post", body: "x" },
        )
      ).status,
    ).toBe(401);

    const attack = `<script>alert(1)</script> <img src=x onerror=alert(2)> [go](javascript:alert(3)) <a href="x" onclick="alert(4)">x</a>`;
    expect((await post(chapter.number, reader, { intent: "post", body: attack })).status).toBe(200);
    const html = (await page(`/chapter/${chapter.number}/comments`)).comments[0]?.html ?? "";
    // Inert: no element but text's, no handler attribute, the tags shown as the text they were.
    expect(html).not.toMatch(/<(script|img|a)\b|<[^>]*\son\w+=/i);
    expect(html).toContain("&#x3C;script>");
    expect(
      (await post(chapter.number, reader, { intent: "post", body: "[go](javascript:alert(3)) *ok*" })).status,
    ).toBe(200);
    expect((await page(`/chapter/${chapter.number}/comments`)).comments[0]?.html).toBe(
      "<p><a>go</a> <em>ok</em></p>",
    );
  });

  it("a new account posts no link in its first day; five comments a minute; a barred reader posts none", async () => {
    const chapter = await made(0);
    const reader = await createReader({ prefix: "limits" });
    const now = new Date();
    expect(
      await postComment(reader, chapter.id, { body: "see www.example.com", spoiler: false }, now),
    ).toEqual({
      ok: false,
      reason: "linksTooSoon",
    });
    await ageAccount(reader.id);
    expect(
      await postComment(reader, chapter.id, { body: "see www.example.com", spoiler: false }, now),
    ).toMatchObject({ ok: true });
    for (let i = 0; i < 4; i++)
      expect(await postComment(reader, chapter.id, { body: `n${i}`, spoiler: false }, now)).toMatchObject({
        ok: true,
      });
    const sixth = await postComment(
      reader,
      chapter.id,
      { body: "sixth", spoiler: false },
      new Date(now.getTime() + 20_000),
    );
    expect(sixth).toEqual({ ok: false, reason: "rateLimited", retryAfterSeconds: 40 });
    expect(
      await postComment(
        reader,
        chapter.id,
        { body: "later", spoiler: false },
        new Date(now.getTime() + 61_000),
      ),
    ).toMatchObject({ ok: true });

    const author = await createAuthor("moderator");
    expect(await setCommentBan(reader.id, true, author)).toEqual({ ok: true });
    expect(
      await postComment(
        reader,
        chapter.id,
        { body: "again", spoiler: false },
        new Date(now.getTime() + 200_000),
      ),
    ).toEqual({
      ok: false,
      reason: "banned",
    });
    expect((await page(`/chapter/${chapter.number}/comments`, reader)).viewer).toMatchObject({
      banned: true,
    });
    expect(await setCommentBan(author.userId, true, author)).toEqual({ ok: false, reason: "author" });
    expect(await setCommentBan(reader.id, false, author)).toEqual({ ok: true });
    expect(
      await postComment(
        reader,
        chapter.id,
        { body: "again", spoiler: false },
        new Date(now.getTime() + 200_000),
      ),
    ).toMatchObject({ ok: true });
  });

  it("the sixth post in a minute answers 429 with when to try again, and keeps the text", async () => {
    const chapter = await made(0);
    const reader = await createReader({ prefix: "sixth" });
    for (let i = 0; i < 5; i++)
      expect((await post(chapter.number, reader, { intent: "post", body: `quick ${i}` })).status).toBe(200);
    const refused = await post(chapter.number, reader, { intent: "post", body: "one too many" });
    expect(refused).toMatchObject({
      status: 429,
      data: { error: "comments.errors.rateLimited", body: "one too many" },
    });
    expect(Number(refused.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(Number(refused.headers?.["Retry-After"])).toBeLessThanOrEqual(60);
  });

  it("edits for 15 minutes (then 'edited'); deleting keeps the place of a comment with replies; hearts count once", async () => {
    const chapter = await made(0);
    const [ana, ben] = [await createReader({ prefix: "edit" }), await createReader({ prefix: "heart" })];
    const path = `/chapter/${chapter.number}/comments`;
    expect((await post(chapter.number, ana, { intent: "post", body: "first" })).status).toBe(200);
    const id = String((await page(path, ana)).comments[0]?.id);
    expect((await page(path, ana)).comments[0]?.editableMd).toBe("first");
    expect(
      (await post(chapter.number, ana, { intent: "edit", comment: id, body: "first, better", spoiler: "on" }))
        .status,
    ).toBe(200);
    expect((await page(path)).comments[0]).toMatchObject({ html: "<p>first, better</p>", spoiler: true });
    expect((await page(path)).comments[0]?.editedAt).not.toBeNull();
    // Someone else's comment cannot be edited or deleted.
    expect((await post(chapter.number, ben, { intent: "edit", comment: id, body: "mine now" })).status).toBe(
      404,
    );
    expect((await post(chapter.number, ben, { intent: "delete", comment: id })).status).toBe(404);
    // Past the window.
    await handle.db
      .update(comments)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(comments.id, Number(id)));
    expect((await page(path, ana)).comments[0]?.editableMd).toBeUndefined();
    expect(await post(chapter.number, ana, { intent: "edit", comment: id, body: "late" })).toMatchObject({
      status: 409,
      data: { error: "comments.errors.editWindow" },
    });

    for (const on of ["1", "1"])
      expect((await post(chapter.number, ben, { intent: "heart", comment: id, on })).status).toBe(200);
    expect((await page(path, ben)).comments[0]).toMatchObject({ hearts: 1, hearted: true });
    expect((await page(path, ana)).comments[0]).toMatchObject({ hearts: 1, hearted: false });
    expect((await post(chapter.number, ben, { intent: "heart", comment: id, on: "0" })).status).toBe(200);
    expect((await page(path)).comments[0]?.hearts).toBe(0);

    expect((await post(chapter.number, ben, { intent: "post", body: "a reply", parent: id })).status).toBe(
      200,
    );
    expect((await post(chapter.number, ana, { intent: "delete", comment: id })).status).toBe(200);
    const kept = (await page(path)).comments[0];
    expect(kept).toMatchObject({ deleted: true, html: "" });
    expect(kept?.replies.map((reply) => reply.html)).toEqual(["<p>a reply</p>"]);
    expect((await page(path)).total).toBe(1);
    const replyId = String(kept?.replies[0]?.id);
    expect((await post(chapter.number, ben, { intent: "delete", comment: replyId })).status).toBe(200);
    expect((await page(path)).comments).toEqual([]);
  });

  it("reports reach the author, who hides, restores and deletes; a hidden comment is shown to no reader", async () => {
    const chapter = await made(0);
    const [writer, reporter] = [
      await createReader({ prefix: "rude" }),
      await createReader({ prefix: "report" }),
    ];
    const author = await createAuthor("mod");
    const path = `/chapter/${chapter.number}/comments`;
    await post(chapter.number, writer, { intent: "post", body: "rude words" });
    const id = (await page(path)).comments[0]?.id ?? 0;
    expect(await post(chapter.number, writer, { intent: "report", comment: String(id) })).toMatchObject({
      status: 400,
      data: { error: "comments.errors.ownComment" },
    });
    expect(
      (await post(chapter.number, reporter, { intent: "report", comment: String(id), reason: "insults" }))
        .status,
    ).toBe(200);
    expect(await reportComment(reporter, chapter.id, id, "insults, twice")).toMatchObject({ ok: true });
    const queue = await listForModeration({ view: "reported" });
    expect(queue.comments.find((one) => one.id === id)?.reports).toEqual(["insults, twice"]);

    expect(await moderateComment(id, "hide", author)).toEqual({ ok: true });
    expect((await page(path)).comments).toEqual([]);
    expect((await page(path, writer)).comments).toEqual([]);
    expect((await commentCounts())[chapter.number]).toBeUndefined();
    expect((await listForModeration({ view: "reported" })).comments.some((one) => one.id === id)).toBe(false);
    expect((await listForModeration({ view: "hidden" })).comments.some((one) => one.id === id)).toBe(true);
    expect(await moderateComment(id, "restore", author)).toEqual({ ok: true });
    expect((await page(path)).total).toBe(1);
    expect(await moderateComment(id, "delete", author)).toEqual({ ok: true });
    expect((await page(path)).total).toBe(0);
    expect(await moderateComment(id, "hide", author)).toEqual({ ok: false, reason: "notFound" });
  });

  it("pages 30 comments at a time, newest or oldest first", async () => {
    const chapter = await made(0);
    const readers = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(() => createReader({ prefix: "many" })));
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 31; i++)
      await postComment(
        readers[i % 7] as TestReader,
        chapter.id,
        { body: `c${i}`, spoiler: false },
        new Date(start + i * 60_000),
      );
    const path = `/chapter/${chapter.number}/comments`;
    const newest = await page(path);
    expect([newest.total, newest.pages, newest.comments.length, newest.comments[0]?.html]).toEqual([
      31,
      2,
      30,
      "<p>c30</p>",
    ]);
    const oldestSecond = await page(`${path}?order=oldest&page=2`);
    expect(oldestSecond.comments.map((one) => one.html)).toEqual(["<p>c30</p>"]);
    expect((await page(`${path}?order=sideways&page=-3`)).comments[0]?.html).toBe("<p>c30</p>");
    expect((await page(`${path}?page=99`)).comments).toEqual([]);
  });
});

describe.runIf(drivers.includes("postgres"))("chapter comments under concurrency (PostgreSQL)", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("ten posts at once by one reader: exactly five pass the five-a-minute rule", async () => {
    const chapter = await made(0);
    const reader = await createReader({ prefix: "burst" });
    const now = new Date();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postComment(reader, chapter.id, { body: `b${i}`, spoiler: false }, now),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(5);
    expect(await handle.db.select().from(comments).where(eq(comments.userId, reader.id))).toHaveLength(5);
  });

  it("hearts set and unset at once by many readers: the count is the rows", async () => {
    const chapter = await made(0);
    const writer = await createReader({ prefix: "loved" });
    const outcome = await postComment(writer, chapter.id, { body: "love me", spoiler: false });
    if (!outcome.ok) throw new Error("posted");
    const fans = await Promise.all(Array.from({ length: 8 }, () => createReader({ prefix: "fan" })));
    await Promise.all(
      fans.flatMap((fan, i) => [
        setHeart(fan, chapter.id, outcome.id, true),
        setHeart(fan, chapter.id, outcome.id, i % 2 === 0),
      ]),
    );
    const [row] = await handle.db
      .select({ hearts: comments.hearts })
      .from(comments)
      .where(eq(comments.id, outcome.id));
    const rows = await handle.db.select().from(commentHearts).where(eq(commentHearts.commentId, outcome.id));
    expect(row?.hearts).toBe(rows.length);
  });
});
