import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { fundraiserGoals, payments, subscriptions, supporters } from "#db/schema";
import { followSessionEvents, stopFollowingSessionEvents } from "~/features/auth/session.server";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import {
  countSupporters,
  fundraiserFigures,
  getGoals,
  listSupporters,
} from "~/features/fundraiser/queries.server";
import { getMembership } from "~/features/membership/queries.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { processEvent } from "~/features/payments/fulfil.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import { startRevisionPoll, stopRevisionPoll } from "~/features/site/revision.server";
import { action as supporterAction, loader as supporterLoader } from "~/routes/account/supporter";
import { action as fundraiserAction, loader as fundraiserLoader } from "~/routes/fundraiser";
import { loader as wallLoader } from "~/routes/fundraiser/supporters";
import { loader as thanksLoader } from "~/routes/fundraiser/thanks";
import { loader as homeLoader } from "~/routes/home";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { waitFor } from "../support/poll";
import { unique } from "../support/unique";

type Choice = {
  display: "username" | "name" | "anonymous" | "hidden";
  name: string;
  emoji: string;
  message: string;
};

// biome-ignore lint/suspicious/noExplicitAny: loaders are called with the subset of arguments they read
function call<T>(fn: (args: any) => T, path: string, init: RequestInit = {}): T {
  return fn({
    request: new Request(`http://localhost${path}`, init),
    params: {},
    context: { ip: unique("ip-") },
  });
}

async function thrown(promise: Promise<unknown>): Promise<{ status?: number; location?: string | null }> {
  try {
    await promise;
    return {};
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get("Location") };
    return { status: (error as { init?: { status?: number } }).init?.status ?? 500 };
  }
}

const sessionOf = (url: string) => url.replace("/pay/test/", "");

describe.each(drivers)("fundraiser on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  /** A reader's gift, approved on the test provider (its event goes through processEvent). */
  async function give(reader: TestReader, amountCents: number, supporter?: Choice) {
    const { paymentId, url } = await startCheckout(
      reader,
      { kind: "gift", amountCents, currency: "USD", ...(supporter ? { supporter } : {}) },
      { ip: unique("ip-") },
    );
    await answerTestCheckout(sessionOf(url), "approve");
    return paymentId;
  }

  const raised = async () => {
    const goals = await getGoals();
    return { campaign: goals.campaign?.raisedCents ?? -1, monthly: goals.monthly?.raisedCents ?? -1 };
  };

  it("starts from the imported history: $6,500 of $10,000 (65 %), 127 listed supporters, on home and /fundraiser", async () => {
    const home = await call(homeLoader, "/");
    expect(home.fundraiser?.goal).toMatchObject({
      period: "campaign",
      raisedCents: 650_000,
      targetCents: 1_000_000,
      percent: 65,
      barPercent: 65,
    });
    expect(home.fundraiser?.supporterCount).toBe(127);
    expect(home.fundraiser?.supporters).toHaveLength(3);
    const page = await call(fundraiserLoader, "/fundraiser");
    expect(page.campaign?.raisedCents).toBe(650_000);
    expect(page.monthly).toMatchObject({ period: "monthly", targetCents: 200_000 });
    expect(page.recent).toHaveLength(12);
    expect(page.supporterCount).toBe(127);
    // The monthly goal counts the imported history of this month only.
    const imported = await handle.db.select().from(supporters).where(isNull(supporters.userId));
    const { periodStart, periodEnd } = page.monthly ?? { periodStart: "", periodEnd: null };
    const thisMonth = imported
      .filter((row) => row.supportedAt >= new Date(periodStart) && row.supportedAt < new Date(periodEnd ?? 0))
      .reduce((total, row) => total + row.amountCents, 0);
    expect(page.monthly?.raisedCents).toBe(thisMonth);
  });

  it("a gift of $12.34 raises both goals by exactly 1234 cents and grants no tier; a refund takes it back out", async () => {
    const reader = await createReader({ prefix: "giver" });
    const before = await raised();
    const paymentId = await give(reader, 1234, {
      display: "name",
      name: "Twelve Thirty",
      emoji: "🦇",
      message: "",
    });
    expect(await raised()).toEqual({ campaign: before.campaign + 1234, monthly: before.monthly + 1234 });
    expect((await getMembership(reader.id)).tier).toBe("free");
    expect(await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, reader.id))).toEqual(
      [],
    );

    const [payment] = await handle.db.select().from(payments).where(eq(payments.id, paymentId));
    const refund = (refundedCents: number) =>
      processEvent("test", {
        id: `evt_refund_${unique()}`,
        type: "refund",
        effect: {
          kind: "refunded",
          providerPaymentId: payment?.providerPaymentId ?? "",
          refundedCents,
          currency: "USD",
        },
      });
    await refund(234);
    expect(await raised()).toEqual({ campaign: before.campaign + 1000, monthly: before.monthly + 1000 });
    await refund(1234);
    expect(await raised()).toEqual(before);
  });

  it("counts a paid subscription invoice in the month it is paid, not a failed or disputed one", async () => {
    const reader = await createReader({ prefix: "subscriber" });
    const before = await raised();
    const invoice = (status: "paid" | "failed" | "disputed", paidAt: Date | null) => ({
      userId: reader.id,
      kind: "subscription" as const,
      provider: "test",
      status,
      amountCents: 700,
      currency: "USD",
      description: "Analyst (monthly)",
      tierKey: "analyst" as const,
      providerInvoiceId: unique("in_"),
      paidAt,
    });
    await handle.db.insert(payments).values(invoice("paid", new Date()));
    await handle.db.insert(payments).values(invoice("failed", null));
    await handle.db.insert(payments).values(invoice("disputed", new Date()));
    // Paid last year: the campaign (from 1 January 2026) does not count it, nor this month.
    await handle.db.insert(payments).values(invoice("paid", new Date("2025-12-15T00:00:00Z")));
    expect(await raised()).toEqual({ campaign: before.campaign + 700, monthly: before.monthly + 700 });
  });

  it("lists a supporter who chose to be listed (the count rises by one); not listed counts money, not the supporter", async () => {
    const listed = await createReader({ prefix: "listed" });
    const hidden = await createReader({ prefix: "hidden" });
    const count = await countSupporters();
    const before = await raised();
    await give(hidden, 500, { display: "hidden", name: "", emoji: "", message: "" });
    expect(await countSupporters()).toBe(count);
    expect((await raised()).campaign).toBe(before.campaign + 500);
    await give(listed, 700, { display: "username", name: "", emoji: "🌙", message: "For the lamps" });
    expect(await countSupporters()).toBe(count + 1);
    const [first] = await listSupporters({ limit: 1 });
    expect(first).toMatchObject({
      name: listed.username,
      emoji: "🌙",
      message: "For the lamps",
      tier: "gift",
    });
    const all = await listSupporters({ limit: 1000 });
    expect(all.some((entry) => entry.name === hidden.username)).toBe(false);
  });

  it("an anonymous supporter's name and username appear nowhere in the pages' data", async () => {
    const reader = await createReader({ prefix: "shadow" });
    await give(reader, 1234, { display: "anonymous", name: "", emoji: "🕯️", message: "Quietly" });
    const pages = [
      await call(homeLoader, "/"),
      await call(fundraiserLoader, "/fundraiser"),
      await call(wallLoader, "/fundraiser/supporters"),
      await call(wallLoader, "/fundraiser/supporters?tier=gift"),
    ];
    for (const data of pages) expect(JSON.stringify(data)).not.toContain(reader.username);
    const wall = await call(wallLoader, "/fundraiser/supporters");
    expect(wall.supporters[0]).toEqual(
      expect.objectContaining({ name: null, emoji: "🕯️", message: "Quietly" }),
    );
    // A display name typed before choosing Anonymous is not even stored.
    const [row] = await handle.db.select().from(supporters).where(eq(supporters.userId, reader.id));
    expect(row?.name).toBe("");
  });

  it("shows the current username after a rename", async () => {
    const reader = await createReader({ prefix: "renamer" });
    await give(reader, 100, { display: "username", name: "", emoji: "", message: "" });
    const renamed = unique("renamed");
    const { users } = await import("#db/schema");
    await handle.db.update(users).set({ username: renamed }).where(eq(users.id, reader.id));
    const [first] = await listSupporters({ limit: 1 });
    expect(first?.name).toBe(renamed);
  });

  it("pages the wall 50 at a time, newest first, and filters by tier", async () => {
    const total = await countSupporters();
    const pages = Math.ceil(total / 50);
    const first = await call(wallLoader, "/fundraiser/supporters");
    expect(first).toMatchObject({ page: 1, total, pages });
    expect(first.supporters).toHaveLength(50);
    const last = await call(wallLoader, `/fundraiser/supporters?page=${pages}`);
    expect(last.supporters).toHaveLength(total - 50 * (pages - 1));
    const seen = new Set<number>();
    for (let page = 1; page <= pages; page++) {
      const data = await call(wallLoader, `/fundraiser/supporters?page=${page}`);
      for (const entry of data.supporters) seen.add(entry.id);
      const times = data.supporters.map((entry) => entry.supportedAt);
      expect([...times].sort().reverse()).toEqual(times);
    }
    expect(seen.size).toBe(total);
    const founders = await call(wallLoader, "/fundraiser/supporters?tier=Founder");
    expect(founders.total).toBe(await countSupporters("Founder"));
    expect(founders.supporters.every((entry) => entry.tier === "Founder")).toBe(true);
    // Garbage reads as the default page.
    const garbage = await call(wallLoader, "/fundraiser/supporters?page=-1&tier=<script>");
    expect(garbage).toMatchObject({ page: 1, tier: null, total });
  });

  it("the join and gift forms: visitors sign in first; bad input is 400 with catalogue keys; good input opens checkout", async () => {
    const post = (body: Record<string, string>, cookie?: string) =>
      call(fundraiserAction, "/fundraiser", {
        method: "POST",
        body: new URLSearchParams(body),
        headers: cookie ? { Cookie: cookie } : {},
      });
    expect(await thrown(post({ intent: "gift", preset: "500" }))).toMatchObject({
      status: 302,
      location: "/login?redirectTo=%2Ffundraiser",
    });
    const reader = await createReader({ prefix: "former" });
    const bad = (await post({ intent: "gift", customAmount: "1000.01" }, reader.cookie)) as {
      init: { status: number };
      data: { errors: Record<string, string> };
    };
    expect(bad.init.status).toBe(400);
    expect(bad.data.errors).toEqual({ customAmount: "gifts.errors.amountRange" });
    const gift = (await post(
      { intent: "gift", customAmount: "12.34", display: "anonymous", emoji: "🦇" },
      reader.cookie,
    )) as Response;
    expect(gift.status).toBe(302);
    expect(gift.headers.get("Location")).toMatch(/^\/pay\/test\//);
    const [pending] = await handle.db.select().from(payments).where(eq(payments.userId, reader.id));
    expect(pending).toMatchObject({
      kind: "gift",
      amountCents: 1234,
      status: "pending",
      supporterChoice: { display: "anonymous", name: "", emoji: "🦇", message: "" },
    });
    const join = (await post(
      { intent: "join", tierKey: "analyst", display: "username" },
      reader.cookie,
    )) as Response;
    expect(join.status).toBe(302);
    const unknown = (await post({ intent: "join", tierKey: "platinum" }, reader.cookie)) as {
      init: { status: number };
    };
    expect(unknown.init.status).toBe(404);
  });

  it("the thank-you page shows the payer's own payment only, and where it stands", async () => {
    const payer = await createReader({ prefix: "thanked" });
    const other = await createReader({ prefix: "nosy" });
    const { paymentId, url } = await startCheckout(
      payer,
      {
        kind: "gift",
        amountCents: 2500,
        currency: "USD",
        supporter: { display: "anonymous", name: "", emoji: "", message: "" },
      },
      { ip: unique("ip-") },
    );
    const as = (reader: TestReader, query = `payment=${paymentId}`) =>
      call(thanksLoader, `/fundraiser/thanks?${query}`, { headers: { Cookie: reader.cookie } });
    expect((await as(payer)).payment).toMatchObject({ status: "pending", amountCents: 2500, kind: "gift" });
    expect(await thrown(as(other))).toMatchObject({ status: 404 });
    expect(await thrown(as(payer, "payment=abc"))).toMatchObject({ status: 404 });
    expect(await thrown(call(thanksLoader, `/fundraiser/thanks?payment=${paymentId}`))).toMatchObject({
      status: 302,
    });
    await answerTestCheckout(sessionOf(url), "approve");
    const paid = await as(payer);
    expect(paid.payment.status).toBe("paid");
    expect(paid.choice).toMatchObject({ display: "anonymous" });
  });

  it("the account editor changes how a supporter appears; it never adds a reader who has not supported", async () => {
    const reader = await createReader({ prefix: "editor" });
    const save = (body: Record<string, string>) =>
      call(supporterAction, "/account/supporter", {
        method: "POST",
        body: new URLSearchParams(body),
        headers: { Cookie: reader.cookie },
      });
    const notYet = (await save({ display: "name", displayName: "Ghost" })) as { init: { status: number } };
    expect(notYet.init.status).toBe(409);
    expect(await handle.db.select().from(supporters).where(eq(supporters.userId, reader.id))).toEqual([]);
    await give(reader, 300);
    const tooLong = (await save({ display: "name", displayName: "x".repeat(41) })) as {
      init: { status: number };
    };
    expect(tooLong.init.status).toBe(400);
    expect(await save({ display: "name", displayName: "The Editor", emoji: "📜", message: "Hello" })).toEqual(
      {
        saved: true,
      },
    );
    const [first] = await listSupporters({ limit: 1 });
    expect(first).toMatchObject({ name: "The Editor", emoji: "📜", message: "Hello" });
    const panel = await call(supporterLoader, "/account/supporter", { headers: { Cookie: reader.cookie } });
    expect(panel.panel.entry).toMatchObject({ display: "name", displayName: "The Editor" });
    expect(panel.panel.gifts).toEqual([expect.objectContaining({ amountCents: 300, status: "paid" })]);
  });

  it("two gifts of one reader confirmed at once leave one wall entry, and both count", async () => {
    const reader = await createReader({ prefix: "twice" });
    const before = await raised();
    const checkouts = await Promise.all(
      [200, 300].map((amountCents) =>
        startCheckout(reader, { kind: "gift", amountCents, currency: "USD" }, { ip: unique("ip-") }),
      ),
    );
    await Promise.all(checkouts.map(({ url }) => answerTestCheckout(sessionOf(url), "approve")));
    expect(await handle.db.select().from(supporters).where(eq(supporters.userId, reader.id))).toHaveLength(1);
    expect((await raised()).campaign).toBe(before.campaign + 500);
  });

  it("exports goals and the imported history only; the export imports back unchanged", async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cc-fundraiser-"));
    try {
      await exportContent(handle.db, scratch);
      const text = fs.readFileSync(path.join(scratch, "fundraiser.md"), "utf8");
      expect(text).toContain("period: monthly");
      const bundle = await readContentDir(scratch);
      expect(bundle.fundraiser?.data.supporters).toHaveLength(127);
      const report = await importContent(handle.db, bundle);
      expect(report.goals).toMatchObject({ inserted: 0, updated: 0 });
      expect(report.supporters).toMatchObject({ inserted: 0, updated: 0 });
      const goals = await handle.db.select().from(fundraiserGoals);
      expect(goals.map((goal) => goal.period).sort()).toEqual(["campaign", "monthly"]);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});

/**
 * The figures every reader's /fundraiser shows alike are read once for all (ADR 71), and read again as soon
 * as money moves: a supporter row written by any instance, seen through the reader events.
 */
describe.each(drivers)("the fundraiser's shared figures on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    stopFollowingSessionEvents();
    stopRevisionPoll();
    await handle.close();
  });

  it("are read once for many readers, and again once a supporter is added", async () => {
    await startRevisionPoll(3_600_000);
    await followSessionEvents(20);
    const first = await fundraiserFigures();
    expect(await fundraiserFigures()).toBe(first);
    const reader = await createReader({ prefix: "figures" });
    await db().insert(supporters).values({
      userId: reader.id,
      display: "username",
      name: "Someone",
      tier: "gift",
      emoji: "🌙",
      message: "Shared figures",
      supportedAt: new Date(),
    });
    // Waits for the figures that hold the new supporter: a revision moved by the reader's own creation may
    // re-read the figures before the supporter's row is in.
    const after = await waitFor(async () => {
      const now = await fundraiserFigures();
      return now.supporterCount > first.supporterCount ? now : undefined;
    });
    expect(after.supporterCount).toBe(first.supporterCount + 1);
    expect(after.recent[0]?.message).toBe("Shared figures");
  });
});
