import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import {
  auditLog,
  membershipGrants,
  payments,
  pollVotes,
  subscriptions,
  supporters,
  uploads,
  users,
} from "#db/schema";
import { readCredited } from "~/features/credits/queries.server";
import { createPoll } from "~/features/polls/editing.server";
import { listPolls } from "~/features/polls/queries.server";
import { castVote } from "~/features/polls/voting.server";
import { loadChapterForReader } from "~/features/reader/access.server";
import { action as creditsAdminAction } from "~/routes/admin/credits";
import { action as pollAction } from "~/routes/admin/poll";
import { loader as creditsLoader } from "~/routes/credits";
import { loader as pollsLoader, action as voteAction } from "~/routes/polls";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantMembership, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

/**
 * Votes on art and the credits (docs/product-rules.md "Votes on art", "Credits") against a real database:
 * who may vote, a change of vote, the close time, who sees the results, the admin's audited edits; who is
 * named in the credits and how.
 */

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** An upload row as the media page would leave it (its files are not read here). */
async function anUpload(): Promise<number> {
  const hex = randomBytes(16).toString("hex");
  const [row] = await db()
    .insert(uploads)
    .values({
      hash: hex,
      keyPrefix: `uploads/${hex}/`,
      originalFilename: `${hex}.png`,
      contentType: "image/png",
      width: 600,
      height: 600,
      bytes: 1000,
      variants: [
        {
          key: `uploads/${hex}/600.png`,
          format: "png",
          contentType: "image/png",
          width: 600,
          height: 600,
          bytes: 1000,
        },
      ],
    })
    .returning({ id: uploads.id });
  if (!row) throw new Error("no upload");
  return row.id;
}

// biome-ignore lint/suspicious/noExplicitAny: actions and loaders are called with the arguments they read
const call = (fn: (args: any) => Promise<unknown>, request: Request, params: Record<string, string> = {}) =>
  statusOf(() => fn({ request, params, context: {} }));
const get = (url: string, reader?: TestReader) =>
  new Request(`http://localhost${url}`, { headers: reader ? { cookie: reader.cookie } : {} });

/** A reader holding a tier through membership days (30 Observer, 90 Analyst, 180 First Human). */
async function readerWithDays(days: number, prefix = "voter") {
  const reader = await createReader({ prefix });
  if (days > 0) await grantMembership(reader.id, days);
  return reader;
}

async function openPoll(
  author: number,
  images: number[],
  opensAt = new Date(Date.now() - HOUR),
  closesAt = new Date(Date.now() + DAY),
) {
  const saved = await createPoll(
    {
      question: unique("Which cover? "),
      opensAt,
      closesAt,
      options: images.map((uploadId, index) => ({ label: `Option ${index + 1}`, uploadId })),
    },
    { via: "admin", userId: author },
  );
  if (!saved.ok) throw new Error(saved.reason);
  const poll = (await listPolls(undefined, new Date(Math.max(Date.now(), opensAt.getTime())))).find(
    (p) => p.id === saved.id,
  );
  return { id: saved.id, options: poll?.options.map((option) => option.id) ?? [] };
}

describe.each(drivers)("votes on art on %s", (driver) => {
  let handle: DatabaseHandle;
  let author: TestReader;
  let images: number[];
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    author = await createReader({ prefix: "pollauthor" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
    images = [await anUpload(), await anUpload(), await anUpload()];
  });
  afterAll(() => handle.close());

  it("lets an Analyst vote once and change the vote while open; the results show to them after voting", async () => {
    const poll = await openPoll(author.id, images);
    const analyst = await readerWithDays(90);
    const [first, second] = poll.options as [number, number];
    expect(
      (await call(voteAction, post("/polls", analyst, { poll: String(poll.id), option: String(first) })))
        .status,
    ).toBe(200);
    expect(
      (await call(voteAction, post("/polls", analyst, { poll: String(poll.id), option: String(second) })))
        .status,
    ).toBe(200);
    const rows = await db().select().from(pollVotes).where(eq(pollVotes.pollId, poll.id));
    expect(rows).toEqual([expect.objectContaining({ userId: analyst.id, optionId: second })]);

    const page = (await call(pollsLoader, get("/polls", analyst))).body as Awaited<
      ReturnType<typeof pollsLoader>
    >;
    const mine = page.polls.find(({ poll: p }) => p.id === poll.id);
    expect(mine?.refusal).toBeUndefined();
    expect(mine?.poll.myOption).toBe(second);
    expect(mine?.poll.total).toBe(1);
    expect(mine?.poll.options.map((o) => [o.votes, o.percent])).toEqual([
      [0, 0],
      [1, 100],
      [0, 0],
    ]);
  });

  it("refuses a free or Observer reader with the tier's message, asks a visitor to sign in, and hides open results from non-voters", async () => {
    const poll = await openPoll(author.id, images);
    const option = String(poll.options[0]);
    for (const days of [0, 30]) {
      const reader = await readerWithDays(days, "lowtier");
      const answer = await call(voteAction, post("/polls", reader, { poll: String(poll.id), option }));
      expect(answer).toEqual({ status: 403, body: { poll: poll.id, error: "polls.errors.tier" } });
      const page = (await call(pollsLoader, get("/polls", reader))).body as Awaited<
        ReturnType<typeof pollsLoader>
      >;
      const seen = page.polls.find(({ poll: p }) => p.id === poll.id);
      expect(seen?.refusal).toBe("tier");
      expect(seen?.poll.total).toBeUndefined();
      expect(seen?.poll.options.every((o) => o.votes === undefined)).toBe(true);
    }
    expect(await call(voteAction, post("/polls", undefined, { poll: String(poll.id), option }))).toEqual({
      status: 401,
      body: { poll: poll.id, error: "polls.errors.signIn" },
    });
    const visitor = (await call(pollsLoader, get("/polls"))).body as Awaited<ReturnType<typeof pollsLoader>>;
    expect(visitor.polls.find(({ poll: p }) => p.id === poll.id)?.refusal).toBe("signIn");
    expect(await db().select().from(pollVotes).where(eq(pollVotes.pollId, poll.id))).toEqual([]);
  });

  it("takes no vote after the close time, and shows a closed poll's results to everyone; an upcoming poll is not listed", async () => {
    const poll = await openPoll(author.id, images.slice(0, 2));
    const firstHuman = await readerWithDays(180);
    const [option] = poll.options as [number];
    const open = new Date(Date.now() + HOUR);
    await castVote({ userId: firstHuman.id, tier: "first_human" }, { poll: poll.id, option }, open);
    const closes = new Date(Date.now() + DAY);
    await expect(
      castVote({ userId: firstHuman.id, tier: "first_human" }, { poll: poll.id, option }, closes),
    ).rejects.toMatchObject({ status: 409, messageKey: "polls.errors.closed" });
    const later = await listPolls(undefined, new Date(closes.getTime() + 1));
    const shown = later.find((p) => p.id === poll.id);
    expect(shown?.phase).toBe("closed");
    expect(shown?.total).toBe(1);
    expect(shown?.options.map((o) => o.percent)).toEqual([100, 0]);

    const upcoming = await openPoll(
      author.id,
      images.slice(0, 2),
      new Date(Date.now() + DAY),
      new Date(Date.now() + 2 * DAY),
    );
    expect((await listPolls(undefined)).some((p) => p.id === upcoming.id)).toBe(false);
    await expect(
      castVote(
        { userId: firstHuman.id, tier: "first_human" },
        { poll: upcoming.id, option: upcoming.options[0] ?? 0 },
      ),
    ).rejects.toMatchObject({ status: 409, messageKey: "polls.errors.notOpen" });
  });

  it("refuses an option of another poll, an unknown poll and a malformed vote without a 500", async () => {
    const [a, b] = [
      await openPoll(author.id, images.slice(0, 2)),
      await openPoll(author.id, images.slice(1, 3)),
    ];
    const analyst = await readerWithDays(90);
    const vote = (fields: Record<string, string> | string) =>
      call(voteAction, post("/polls", analyst, fields));
    expect((await vote({ poll: String(a.id), option: String(b.options[0]) })).status).toBe(404);
    expect((await vote({ poll: "2147483647", option: String(a.options[0]) })).status).toBe(404);
    const malformed: (Record<string, string> | string)[] = [
      { poll: "x", option: "1" },
      { poll: "1" },
      { poll: "-1", option: "0" },
      "\u0000garbage",
    ];
    for (const fields of malformed) expect((await vote(fields)).status).toBe(400);
    expect(await db().select().from(pollVotes).where(eq(pollVotes.userId, analyst.id))).toEqual([]);
  });

  it("saves the author's poll from the admin form, audited (create, update with before and after, delete)", async () => {
    const fields = {
      question: "Which roof for the cover?",
      opensLocal: "2026-03-01T12:00",
      closesLocal: "2026-03-08T12:00",
      option0Label: "Slate",
      option0Image: String(images[0]),
      option1Label: "Copper",
      option1Image: String(images[1]),
    };
    const refused = await call(pollAction, post("/admin/polls/new", author, { ...fields, option1Image: "" }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: { option1Image: "admin.polls.errors.image" } });
    const missing = await call(
      pollAction,
      post("/admin/polls/new", author, { ...fields, option1Image: "2147483647" }),
    );
    expect(missing.body).toMatchObject({ errors: { option0Image: "admin.polls.errors.image" } });
    const reader = await createReader({ prefix: "notauthor" });
    expect((await call(pollAction, post("/admin/polls/new", reader, fields))).status).toBe(404);

    const created = await call(pollAction, post("/admin/polls/new", author, fields));
    const id = Number(/\/admin\/polls\/(\d+)\?saved=1$/.exec(created.location ?? "")?.[1]);
    expect(id).toBeGreaterThan(0);
    const saved = await call(
      pollAction,
      post(`/admin/polls/${id}`, author, {
        ...fields,
        option1Label: "Copper green",
        option2Label: "Tin",
        option2Image: String(images[2]),
      }),
      { id: String(id) },
    );
    expect(saved.location).toBe(`/admin/polls/${id}?saved=1`);
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "poll"), eq(auditLog.subjectId, String(id))))
      .orderBy(desc(auditLog.id));
    expect(entries.map((e) => e.action)).toEqual(["poll.update", "poll.create"]);
    expect(entries[0]?.before).toMatchObject({ options: [{ label: "Slate" }, { label: "Copper" }] });
    expect(entries[0]?.after).toMatchObject({
      question: "Which roof for the cover?",
      opensAt: "2026-03-01T12:00:00.000Z",
      options: [{ label: "Slate" }, { label: "Copper green" }, { label: "Tin" }],
    });
    const removed = await call(
      pollAction,
      post(`/admin/polls/${id}`, author, { intent: "delete", confirm: "on" }),
      { id: String(id) },
    );
    expect(removed.location).toContain("/admin/polls?deleted=");
    const [last] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(id)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(last?.action).toBe("poll.delete");
  });
});

describe.each(drivers)("the credits on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  const choose = (userId: number, display: "username" | "name" | "anonymous" | "hidden", name = "") =>
    db().insert(supporters).values({ userId, display, name, tier: "first_human", supportedAt: new Date() });

  it("is linked from each volume's last chapter (the demo's volume 1 ends at chapter 7, volume 2 at 10)", async () => {
    const ends = async (number: number) =>
      (await loadChapterForReader(number, undefined))?.endsVolume ?? false;
    expect([await ends(6), await ends(7), await ends(8), await ends(10)]).toEqual([false, true, false, true]);
  });

  it("names every First Human, present and past, as they chose on the wall: hidden not listed, anonymous as Anonymous", async () => {
    const named = await readerWithDays(180, "named");
    await choose(named.id, "name", "Catalina O.");
    const hidden = await readerWithDays(180, "hidden");
    await choose(hidden.id, "hidden");
    const anonymous = await readerWithDays(180, "anon");
    await choose(anonymous.id, "anonymous", "Secret Sam");
    // Past: 180 days granted 400 days ago, long run out.
    const past = await createReader({ prefix: "past" });
    await db()
      .insert(membershipGrants)
      .values({ userId: past.id, days: 180, grantedAt: new Date(Date.now() - 400 * DAY) });
    await choose(past.id, "username");
    // Past, by a First Human subscription that ended.
    const subscriber = await createReader({ prefix: "subbed" });
    await db()
      .insert(subscriptions)
      .values({
        userId: subscriber.id,
        provider: "test",
        providerSubscriptionId: unique("sub_"),
        tierKey: "first_human",
        status: "canceled",
        startedAt: new Date(Date.now() - 90 * DAY),
        currentPeriodEnd: new Date(Date.now() - 60 * DAY),
        endedAt: new Date(Date.now() - 60 * DAY),
      });
    await choose(subscriber.id, "username");
    // By spend: $100 paid, kept.
    const spender = await createReader({ prefix: "spender" });
    await db().insert(payments).values({
      userId: spender.id,
      kind: "product",
      provider: "test",
      status: "paid",
      amountCents: 100_00,
      currency: "USD",
      description: "Art print",
      paidAt: new Date(),
    });
    // Never First Human: an Analyst, a revoked grant, a spend refunded below $100, a subscription never paid.
    const analyst = await readerWithDays(90, "analyst");
    await choose(analyst.id, "username");
    const revoked = await createReader({ prefix: "revoked" });
    await db()
      .insert(membershipGrants)
      .values({ userId: revoked.id, days: 180, grantedAt: new Date(), revokedAt: new Date() });
    const refunded = await createReader({ prefix: "refunded" });
    await db().insert(payments).values({
      userId: refunded.id,
      kind: "product",
      provider: "test",
      status: "refunded",
      amountCents: 100_00,
      refundedCents: 50_00,
      currency: "USD",
      description: "Art print",
      paidAt: new Date(),
    });
    const unpaid = await createReader({ prefix: "unpaid" });
    await db()
      .insert(subscriptions)
      .values({
        userId: unpaid.id,
        provider: "test",
        providerSubscriptionId: unique("sub_"),
        tierKey: "first_human",
        status: "incomplete",
        currentPeriodEnd: new Date(Date.now() + 30 * DAY),
      });

    const credited = await readCredited(new Date());
    const byId = new Map(credited.map((entry) => [entry.id, entry.name]));
    expect(byId.get(named.id)).toBe("Catalina O.");
    expect(byId.has(hidden.id)).toBe(false);
    expect(byId.get(anonymous.id)).toBeNull();
    expect(byId.get(past.id)).toBe(past.username);
    expect(byId.get(subscriber.id)).toBe(subscriber.username);
    // A First Human who never chose how to appear is not named: "Anonymous".
    expect(byId.has(spender.id)).toBe(true);
    expect(byId.get(spender.id)).toBeNull();
    for (const never of [analyst, revoked, refunded, unpaid]) expect(byId.has(never.id)).toBe(false);
    // Named first, then the anonymous.
    const firstAnonymous = credited.findIndex((entry) => entry.name === null);
    expect(credited.slice(firstAnonymous).every((entry) => entry.name === null)).toBe(true);

    // The page: the names, and the author's acknowledgements once written (audited).
    const author = await createReader({ prefix: "creditauthor" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
    const saved = await call(
      creditsAdminAction,
      post("/admin/credits", author, { acknowledgementsMd: "Thanks to **the beta readers**." }),
    );
    expect(saved.location).toBe("/admin/credits?saved=1");
    const tooLong = await call(
      creditsAdminAction,
      post("/admin/credits", author, { acknowledgementsMd: "x".repeat(20_001) }),
    );
    expect(tooLong.status).toBe(400);
    const page = (await call(creditsLoader, get("/credits"))).body as Awaited<
      ReturnType<typeof creditsLoader>
    >;
    expect(page.names.find((entry) => entry.id === named.id)?.name).toBe("Catalina O.");
    expect(page.acknowledgements).toContain("<strong>the beta readers</strong>");
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "credits.update"));
    expect(entry?.actorId).toBe(author.id);
  });
});
