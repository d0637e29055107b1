import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { orders, payments, readingDays, subscriptions, users } from "#db/schema";
import { getOverview } from "~/features/admin/overview.server";
import { monthOf } from "~/features/fundraiser/period";
import { grantsTier } from "~/features/membership/subscription-access";
import { saveProgress } from "~/features/reader/queries.server";
import { addDays, localDay } from "~/lib/local-time";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

const DAY = 86_400_000;

/** A seeded pseudo-random sequence (mulberry32): the same rows every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The admin overview: every figure equals what the test computes from the same rows. */
describe.each(drivers)("the admin overview on %s", (driver) => {
  let handle: DatabaseHandle;
  const now = new Date();
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    const next = random(20);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
    const thisMonth = monthOf(now, "UTC");
    const lastMonth = monthOf(new Date(thisMonth.start.getTime() - 1), "UTC");
    for (let index = 0; index < 12; index++) {
      const reader = await createReader({ prefix: "overview" });
      await handle.db
        .update(users)
        .set({ createdAt: new Date(now.getTime() - Math.floor(next() * 60) * DAY) })
        .where(sql`${users.id} = ${reader.id}`);
      // Reading on some of the last 40 days, through the reader's own progress writes (the days written in
      // any order, as a reader's devices may send them).
      const days = new Set(Array.from({ length: 8 }, () => Math.floor(next() * 40)));
      let readingTime = 0;
      for (const daysAgo of days) {
        readingTime += 1 + Math.floor(next() * 300);
        const at = new Date(now.getTime() - daysAgo * DAY);
        await saveProgress(
          reader.id,
          1,
          {
            scrollPosition: 0.5,
            paragraph: 0,
            completionPercentage: 50,
            readingTime,
            completed: false,
            bookmarks: [],
            lastReadAt: at.toISOString(),
          },
          at,
        );
      }
      for (let n = 0; n < 3; n++) {
        const month = pick([thisMonth, lastMonth]);
        const paidAt = new Date(
          month.start.getTime() +
            next() * (Math.min(month.end.getTime(), now.getTime()) - month.start.getTime()),
        );
        const amountCents = 100 + Math.floor(next() * 5000);
        const status = pick(["paid", "paid", "refunded", "failed", "disputed"] as const);
        await handle.db.insert(payments).values({
          userId: reader.id,
          kind: pick(["coins", "product", "subscription", "gift"] as const),
          provider: "test",
          status,
          amountCents,
          refundedCents:
            status === "refunded" ? amountCents : status === "paid" ? Math.floor(next() * 50) : 0,
          currency: "USD",
          description: "Generated",
          paidAt,
        });
      }
      const status = pick(["active", "past_due", "canceled"]);
      await handle.db.insert(subscriptions).values({
        userId: reader.id,
        provider: "test",
        providerSubscriptionId: `tsub_overview_${reader.id}`,
        tierKey: pick(["observer", "analyst", "first_human"] as const),
        status,
        currentPeriodEnd: new Date(now.getTime() + (next() * 20 - 10) * DAY),
        cancelAtPeriodEnd: next() < 0.3,
        graceUntil: status === "past_due" ? new Date(now.getTime() + (next() * 4 - 2) * DAY) : null,
        endedAt: status === "canceled" && next() < 0.5 ? new Date(now.getTime() - next() * DAY) : null,
      });
    }
  });
  afterAll(() => handle.close());

  it("counts readers, reading time, accounts, revenue by source, supporters and orders to ship exactly", async () => {
    // Twice: the first keeps the past days' totals, the second reads them.
    await getOverview(now);
    const overview = await getOverview(now);
    const today = localDay(now, "UTC");
    const days = await handle.db.select().from(readingDays);
    const accounts = await handle.db.select({ createdAt: users.createdAt }).from(users);
    for (const window of overview.readers) {
      const from = addDays(today, -(window.days - 1));
      const inWindow = days.filter((row) => row.day >= from && row.day <= today && row.seconds > 0);
      expect(window.readers).toBe(new Set(inWindow.map((row) => row.userId)).size);
      expect(window.seconds).toBe(inWindow.reduce((total, row) => total + row.seconds, 0));
      const joinedSince = now.getTime() - window.days * DAY;
      expect(window.joined).toBe(accounts.filter((row) => row.createdAt.getTime() >= joinedSince).length);
    }
    expect(overview.readers[2]?.readers).toBeGreaterThan(overview.readers[0]?.readers ?? 0);
    expect(overview.readingChart).toHaveLength(30);
    for (const point of overview.readingChart)
      expect(point.readers, point.day).toBe(
        days.filter((row) => row.day === point.day && row.seconds > 0).length,
      );

    const thisMonth = monthOf(now, "UTC");
    const lastMonth = monthOf(new Date(thisMonth.start.getTime() - 1), "UTC");
    const money = await handle.db.select().from(payments);
    const kept = (kind: string, start: Date, end: Date) =>
      money
        .filter(
          (row) =>
            row.kind === kind &&
            (row.status === "paid" || row.status === "refunded") &&
            row.paidAt !== null &&
            row.paidAt >= start &&
            row.paidAt < end,
        )
        .reduce((total, row) => total + row.amountCents - row.refundedCents, 0);
    const usd = overview.revenue.find((table) => table.currency === "USD");
    expect(usd?.sources).toEqual(
      (["coins", "product", "subscription", "gift"] as const).map((kind) => ({
        kind,
        thisMonth: kept(kind, thisMonth.start, now),
        lastMonth: kept(kind, lastMonth.start, thisMonth.start),
      })),
    );
    expect(usd?.sources.some((source) => source.thisMonth > 0 && source.lastMonth > 0)).toBe(true);

    // Supporters: the database's rule is the JavaScript one (membership/subscription-access.ts).
    const subs = await handle.db.select().from(subscriptions);
    for (const tier of ["observer", "analyst", "first_human"] as const)
      expect(overview.supporters.find((row) => row.tier === tier)?.count ?? 0, tier).toBe(
        subs.filter((sub) => sub.tierKey === tier && grantsTier(sub, now)).length,
      );
    expect(subs.some((sub) => grantsTier(sub, now)) && subs.some((sub) => !grantsTier(sub, now))).toBe(true);
    const paidOrders = (await handle.db.select().from(orders)).filter((row) => row.status === "paid");
    expect(overview.ordersToShip).toBe(paidOrders.length);
  });

  it.runIf(driver === "pglite")(
    "asks the same number of queries however many readers and payments there are",
    async () => {
      const client = handle.pglite;
      if (!client) throw new Error("PGlite only");
      const original = client.query.bind(client);
      let queries = 0;
      client.query = ((...args: Parameters<typeof original>) => {
        queries++;
        return original(...args);
      }) as typeof client.query;
      try {
        await getOverview(now);
        queries = 0;
        await getOverview(now);
        const before = queries;
        const reader = await createReader({ prefix: "overview_more" });
        await handle.db.insert(readingDays).values(
          Array.from({ length: 30 }, (_, index) => ({
            userId: reader.id,
            day: addDays(localDay(now, "UTC"), -index),
            seconds: 60,
          })),
        );
        queries = 0;
        await getOverview(now);
        expect(queries).toBe(before);
      } finally {
        client.query = original;
      }
    },
  );
});
