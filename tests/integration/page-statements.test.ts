import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import {
  achievements,
  chapters,
  chapterUnlocks,
  commentHearts,
  comments,
  inquiries,
  orders,
  payments,
  readingDays,
  readingProgress,
  recoveryCodes,
  secondFactors,
  signInChallenges,
  supporters,
  userAchievements,
  users,
} from "#db/schema";
import { createSession } from "~/features/auth/session.server";
import { saveCart } from "~/features/cart/queries.server";
import { commentCounts } from "~/features/comments/queries.server";
import { refreshContentRevision, startRevisionPoll, stopRevisionPoll } from "~/features/site/revision.server";
import { challengeCookieName } from "~/features/two-factor/challenge.server";
import { hashToken, randomToken } from "~/lib/tokens.server";
import { loader as root } from "~/root";
import { loader as account } from "~/routes/account/index";
import { loader as achievementsPage } from "~/routes/achievements";
import { loader as adminInquiries } from "~/routes/admin/inquiries";
import { loader as adminLayout } from "~/routes/admin/layout";
import { loader as confirmEmail } from "~/routes/auth/confirm-email";
import { loader as loginVerify } from "~/routes/auth/login-verify";
import { loader as welcome } from "~/routes/auth/welcome";
import { loader as cart } from "~/routes/cart";
import { loader as chapter } from "~/routes/chapter";
import { loader as chapterComments } from "~/routes/chapter-comments";
import { loader as checkout } from "~/routes/checkout";
import { loader as coins } from "~/routes/coins/index";
import { loader as fundraiser } from "~/routes/fundraiser";
import { loader as settings } from "~/routes/settings";
import { loader as security } from "~/routes/settings-security";
import { loader as shop } from "~/routes/shop/index";
import { loader as shopLayout } from "~/routes/shop/layout";
import { loader as product } from "~/routes/shop/product";
import { loader as toc } from "~/routes/toc";
import { drivers, openTestDatabase } from "../support/database";
import { createChapter, createReader, grantMembership, type TestReader } from "../support/factories";
import { countStatements } from "../support/statements";

/**
 * Every page rendered for a signed-in reader on their request (the page cache keeps none of
 * these for many readers: ADR 53, ADR 71), read in as many statements for a reader with many rows (orders,
 * payments, progress, unlocks, achievements, comments, hearts, devices, factors, cart lines, inquiries) as
 * for the same reader with few: no statement per row. Each page's loaders run as the router runs them for a
 * page load: the root's, the layout's, the page's. The counts are the steady visit's (tests/support/statements.ts).
 */
type Loader = (args: never) => unknown;
type Visitor = "reader" | "challenge" | "author";
const PAGES: [path: string, loaders: Loader[], as: Visitor][] = [
  ["/fundraiser", [fundraiser], "reader"],
  ["/shop", [shopLayout, shop], "reader"],
  ["/shop/product/1", [shopLayout, product], "reader"],
  ["/coins", [coins], "reader"],
  ["/cart", [cart], "reader"],
  ["/checkout", [shopLayout, checkout], "reader"],
  ["/account", [account], "reader"],
  ["/achievements", [achievementsPage], "reader"],
  ["/settings", [settings], "reader"],
  ["/settings/security", [security], "reader"],
  ["/chapter/1/comments", [chapterComments], "reader"],
  ["/toc", [toc], "reader"],
  ["/chapter/1", [chapter], "reader"],
  ["/welcome", [welcome], "reader"],
  ["/confirm-email", [confirmEmail], "reader"],
  ["/login/verify", [loginVerify], "challenge"],
  ["/admin/inquiries", [adminLayout, adminInquiries], "author"],
];

/** The page's loaders with the root's, as for a page load; a redirect or refusal thrown ends the visit. */
async function visit(path: string, loaders: Loader[], cookie: string) {
  const url = `http://localhost${path}`;
  const params = { id: /\/(\d+)(?:\/|$)/.exec(path)?.[1] };
  const statuses: number[] = [];
  await Promise.all(
    [root, ...loaders].map(async (loader) => {
      const context = {
        cspNonce: "",
        requestId: "test",
        ip: "127.0.0.1",
        documentRequest: true,
        documentOnly: {},
        afterResponse: () => {},
      };
      try {
        await (loader as (args: unknown) => unknown)({
          request: new Request(url, { headers: { Cookie: cookie } }),
          params,
          context,
        });
        statuses.push(200);
      } catch (thrown) {
        const status =
          thrown instanceof Response
            ? thrown.status
            : (thrown as { init?: { status?: number } }).init?.status;
        if (status === undefined) throw thrown;
        statuses.push(status);
      }
    }),
  );
  return statuses;
}

describe.each(drivers)("each page rendered for a signed-in reader on %s", (driver) => {
  let handle: DatabaseHandle;
  let reader: TestReader;
  let author: TestReader;
  let challenge: string;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    reader = await createReader({ prefix: "rows" });
    author = await createReader({ prefix: "rowsauthor" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
    // A sign-in of the reader's waiting for its second step: one factor enrolled, one recovery code.
    const token = randomToken();
    challenge = `${challengeCookieName()}=${token}`;
    await db()
      .insert(signInChallenges)
      .values({
        tokenHash: hashToken(token),
        userId: reader.id,
        method: "password",
        expiresAt: new Date(Date.now() + 600_000),
      });
    await addFactors(reader.id, 1);
    // One of each row the pages list: a cart line, a comment with a heart, an inquiry, a day read.
    await saveCart(reader.id, [{ productId: 1, variantId: null, quantity: 1 }]);
    await addComments(reader.id, 1);
    await addInquiries(1);
    await db().insert(readingDays).values({ userId: reader.id, day: "2026-01-01", seconds: 600 });
  }, 120_000);
  afterAll(() => handle.close());

  const cookieOf = (as: Visitor) =>
    as === "reader" ? reader.cookie : as === "author" ? author.cookie : challenge;
  const countAll = async () => {
    const counts: Record<string, { prepared: number; total: number; statuses: number[] }> = {};
    for (const [path, loaders, as] of PAGES) {
      let statuses: number[] = [];
      const count = await countStatements(handle, async () => {
        statuses = await visit(path, loaders, cookieOf(as));
      });
      counts[path] = { ...count, statuses };
    }
    return counts;
  };

  it("reads each page in as many statements with hundreds of rows as with one of each", async () => {
    const few = await countAll();
    // Every page answered (no redirect measured in its place).
    for (const [path, { statuses }] of Object.entries(few))
      expect({ path, statuses }).toEqual({ path, statuses: statuses.map(() => 200) });
    await addManyRows(reader.id);
    expect(await countAll()).toEqual(few);
  }, 240_000);
});

/** `count` confirmed TOTP factors and ten recovery codes. */
async function addFactors(userId: number, count: number) {
  await db()
    .insert(secondFactors)
    .values(
      Array.from({ length: count }, (_, index) => ({
        userId,
        kind: "totp" as const,
        label: `Phone ${index}`,
        totpSecret: "JBSWY3DPEHPK3PXP",
        confirmedAt: new Date(),
      })),
    );
  await db()
    .insert(recoveryCodes)
    .values(Array.from({ length: 10 }, () => ({ userId, codeHash: hashToken(randomToken()) })));
}

/** `count` comments on chapter 1, each with the reader's heart. */
async function addComments(userId: number, count: number) {
  const [first] = await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, 1));
  const added = await db()
    .insert(comments)
    .values(
      Array.from({ length: count }, (_, index) => ({
        chapterId: first?.id ?? 0,
        userId,
        bodyMd: `Comment ${index}`,
        bodyHtml: `<p>Comment ${index}</p>`,
        hearts: 1,
      })),
    )
    .returning({ id: comments.id });
  await db()
    .insert(commentHearts)
    .values(added.map(({ id }) => ({ commentId: id, userId })));
}

async function addInquiries(count: number) {
  await db()
    .insert(inquiries)
    .values(
      Array.from({ length: count }, (_, index) => ({
        productId: 1,
        productName: "A product",
        name: `Asker ${index}`,
        email: `asker${index}@example.com`,
        message: "Is it still there?",
        language: "en",
      })),
    );
}

/**
 * Hundreds of the reader's rows: forty more chapters read (ten unlocked), a year of reading days, every
 * achievement, sixty payments and three orders, a supporter's line and a membership, six devices, five
 * factors, four cart lines, sixty comments with hearts; and sixty inquiries for the author's list.
 */
async function addManyRows(userId: number) {
  const now = Date.now();
  const numbers: number[] = [];
  for (let index = 0; index < 40; index++)
    numbers.push(await createChapter({ releaseAt: new Date(now - (index + 3) * 86_400_000) }));
  const ids = (
    await db()
      .select({ id: chapters.id })
      .from(chapters)
      .where(sql`${chapters.number} >= ${Math.min(...numbers)}`)
  ).map((row) => row.id);
  await db()
    .insert(readingProgress)
    .values(
      ids.map((chapterId) => ({
        userId,
        chapterId,
        completed: true,
        completedAt: new Date(now - 86_400_000),
      })),
    );
  await db()
    .insert(chapterUnlocks)
    .values(ids.slice(0, 10).map((chapterId) => ({ userId, chapterId, coinsSpent: 5 })));
  await db()
    .insert(readingDays)
    .values(
      Array.from({ length: 365 }, (_, index) => ({
        userId,
        day: new Date(now - (index + 1) * 86_400_000).toISOString().slice(0, 10),
        seconds: 300 + index,
      })),
    )
    .onConflictDoNothing();
  const keys = await db().select({ key: achievements.key }).from(achievements);
  await db()
    .insert(userAchievements)
    .values(keys.map(({ key }) => ({ userId, key })))
    .onConflictDoNothing();
  const paid = await db()
    .insert(payments)
    .values(
      Array.from({ length: 60 }, (_, index) => ({
        userId,
        kind: (["coins", "product", "gift", "subscription"] as const)[index % 4] ?? "coins",
        provider: "test",
        status: "paid" as const,
        amountCents: 500 + index,
        currency: "USD",
        description: `Payment ${index}`,
        coins: index % 4 === 0 ? 100 : 0,
      })),
    )
    .returning({ id: payments.id });
  await db()
    .insert(orders)
    .values(
      paid.slice(0, 3).map((row, index) => ({
        userId,
        paymentId: row.id,
        status: "paid" as const,
        totalCents: 1000 + index,
        currency: "USD",
        reservedUntil: new Date(),
      })),
    );
  await db().insert(supporters).values({
    userId,
    display: "username",
    name: "Someone",
    tier: "gift",
    emoji: "🌙",
    message: "Hello",
    supportedAt: new Date(),
  });
  await grantMembership(userId, 30);
  for (let device = 0; device < 5; device++) await createSession(userId, { remember: false });
  await addFactors(userId, 4);
  await saveCart(
    userId,
    [1, 2, 4, 5].map((productId) => ({ productId, variantId: null, quantity: 1 })),
  );
  await addComments(userId, 60);
  await addInquiries(60);
}

/**
 * What every reader's table of contents shows alike, its comment counts, is read once for all readers and
 * again as soon as the comments revision moves (ADR 71), as the visitors' kept table is (ADR 47).
 */
describe.each(drivers)("the table of contents' comment counts on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
  });

  it("are read once for many readers, and again once a comment is added", async () => {
    await startRevisionPoll(3_600_000);
    const first = await commentCounts();
    expect(await commentCounts()).toBe(first);
    const reader = await createReader({ prefix: "counts" });
    await addComments(reader.id, 1);
    await refreshContentRevision();
    const after = await commentCounts();
    expect(after).not.toBe(first);
    expect(after[1]).toBe((first[1] ?? 0) + 1);
  });
});
