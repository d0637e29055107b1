import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, isNull } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { membershipGrants, payments } from "#db/schema";
import { exportAccountData } from "~/features/account/export.server";
import { adjustCoins } from "~/features/account/readers.server";
import { saveCart } from "~/features/cart/queries.server";
import { loadAccountPanels } from "~/features/dashboard/account.server";
import { getMembership } from "~/features/membership/queries.server";
import { unitsCoveredByRefund } from "~/features/order-fulfilment/order-events.server";
import { refundPayment } from "~/features/orders/money.server";
import { placeOrder } from "~/features/orders/place.server";
import { listOrders } from "~/features/orders/queries.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { listPurchases } from "~/features/payments/queries.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import { saveEmailChoices, saveLanguage } from "~/features/settings/queries.server";
import { loader as orderLoader } from "~/routes/orders/order";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader, shippingAddress } from "../support/factories";
import { mailsTo, waitForMail } from "../support/mail";
import { unique } from "../support/unique";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-refunds-"));
process.env.DATA_DIR = dataDir;

/** An e-mail as read from the outbox (its bytes as Latin-1), as UTF-8 text. */
const utf8 = (text: string) => Buffer.from(text, "latin1").toString("utf8");

const BOOKMARKS = 1; // $15, 30 days
const SIGNED_BOOK = 2; // $45, 90 days
const BOX_SET = 4; // $120, 180 days

describe("the units a refund covers (ADR 57)", () => {
  it("counts whole units from the last one", () => {
    expect(unitsCoveredByRefund([4500, 4500], 4500)).toEqual([1]);
    expect(unitsCoveredByRefund([4500, 4500], 3000)).toEqual([]);
    expect(unitsCoveredByRefund([4500, 4500], 9000)).toEqual([1, 0]);
    expect(unitsCoveredByRefund([1500, 12000], 12000)).toEqual([1]);
    // The last unit is not covered: none before it is either, whatever is left.
    expect(unitsCoveredByRefund([1500, 12000], 11999)).toEqual([]);
  });

  it("never covers more than the refund pays for (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { maxLength: 20 }),
        fc.integer({ min: 0, max: 3_000_000 }),
        (prices, refunded) => {
          const units = unitsCoveredByRefund(prices, refunded);
          const covered = units.reduce((sum, unit) => sum + (prices[unit] ?? 0), 0);
          expect(covered).toBeLessThanOrEqual(refunded);
          // The units covered are the last ones, in a row.
          expect(units).toEqual(units.map((_, index) => prices.length - 1 - index));
          if (refunded >= prices.reduce((sum, price) => sum + price, 0))
            expect(units).toHaveLength(prices.length);
        },
      ),
    );
  });
});

describe.each(drivers)("a refund the buyer sees, on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  const liveDays = async (userId: number) =>
    (
      await handle.db
        .select({ days: membershipGrants.days })
        .from(membershipGrants)
        .where(and(eq(membershipGrants.userId, userId), isNull(membershipGrants.revokedAt)))
        .orderBy(asc(membershipGrants.unit))
    ).map((grant) => grant.days);

  async function paidOrder(lines: { productId: number; quantity: number }[], prefix: string) {
    const reader = await createReader({ prefix });
    await saveCart(
      reader.id,
      lines.map((line) => ({ ...line, variantId: null })),
    );
    const placed = await placeOrder(reader, { ...shippingAddress, shipLine2: "" }, { ip: unique() });
    const answered = await answerTestCheckout(placed.url.replace("/pay/test/", ""), "approve");
    return { reader, ...placed, returnedTo: answered?.redirectTo };
  }

  const orderPage = (cookie: string, id: number, query = "") =>
    orderLoader({
      request: new Request(`http://localhost/orders/${id}${query}`, { headers: { cookie } }),
      params: { id: String(id) },
      context: {},
    } as never);

  it("$45 of a $90 order of two books: one book's days go, the order shows it everywhere, an e-mail in French", async () => {
    const author = await createAuthor("refunds");
    const { reader, orderId, paymentId } = await paidOrder(
      [{ productId: SIGNED_BOOK, quantity: 2 }],
      "twobooks",
    );
    await saveLanguage(reader.id, "fr");
    expect(await liveDays(reader.id)).toEqual([90, 90]);

    // A refund that covers no whole book keeps both books' days.
    expect(await refundPayment(paymentId, 3000, "Dented corner", author)).toEqual({ ok: true });
    expect(await liveDays(reader.id)).toEqual([90, 90]);
    const kept = utf8(await waitForMail(dataDir, reader.email, { containing: "30,00" }));
    expect(kept).toContain("vos jours d’adhésion restent");

    // $15 more: $45 in all, one book's price: its 90 days are taken back.
    expect(await refundPayment(paymentId, 1500, "One copy lost", author)).toEqual({ ok: true });
    expect(await liveDays(reader.id)).toEqual([90]);
    const mail = utf8(await waitForMail(dataDir, reader.email, { containing: "15,00" }));
    expect(mail).toContain("Nous vous avons remboursé 15,00");
    expect(mail).toContain("45,00");
    expect(mail).toContain("90 jours d’adhésion ont donc été retirés");
    expect(mail).toContain(`/orders/${orderId}`);
    expect(
      mailsTo(dataDir, reader.email).filter((text) => text.includes("Nous vous avons rembours")),
    ).toHaveLength(2);

    // The order page, the account's orders and purchases, and the data download all say it.
    const page = await orderPage(reader.cookie, orderId);
    expect(page.order).toMatchObject({ status: "paid", totalCents: 9000, refundedCents: 4500 });
    expect((await listOrders(reader.id))[0]).toMatchObject({ id: orderId, refundedCents: 4500 });
    expect((await listPurchases(reader.id))[0]).toMatchObject({ id: paymentId, refundedCents: 4500 });
    const panels = await loadAccountPanels(reader);
    expect(panels.orders[0]).toMatchObject({ id: orderId, status: "paid", refundedCents: 4500 });
    expect(panels.purchases[0]).toMatchObject({ id: paymentId, status: "paid", refundedCents: 4500 });
    const data = await exportAccountData(reader.id);
    expect(data.orders[0]).toMatchObject({ id: orderId, status: "paid", refundedCents: 4500 });
    expect(data.payments[0]).toMatchObject({ id: paymentId, status: "paid", refundedCents: 4500 });
  });

  it("a refund that lowers the tier says why, in the e-mail and on the account", async () => {
    const author = await createAuthor("refunds");
    const { reader, orderId, paymentId } = await paidOrder(
      [
        { productId: BOOKMARKS, quantity: 1 },
        { productId: BOX_SET, quantity: 1 },
      ],
      "boxset",
    );
    expect((await getMembership(reader.id)).tier).toBe("first_human");
    expect(await refundPayment(paymentId, 12000, "Box crushed", author)).toEqual({ ok: true });
    // The box set (the last unit, $120) is covered; the bookmarks' 30 days stay: Observer.
    expect(await liveDays(reader.id)).toEqual([30]);
    expect((await getMembership(reader.id)).tier).toBe("observer");
    const mail = await waitForMail(dataDir, reader.email, { containing: "$120.00" });
    expect(mail).toContain("Your membership tier is now Observer (it was First Human)");
    expect(mail).toContain("180 membership days were taken back");
    const change = { from: "first_human", to: "observer" };
    expect((await orderPage(reader.cookie, orderId)).order.refundTierChange).toEqual(change);
    expect((await loadAccountPanels(reader)).purchases[0]?.refundTierChange).toEqual(change);
    const [row] = await handle.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(row?.refundTierChange).toEqual(change);
  });

  it("thanks the payer only on the return from paying, and never after a refund", async () => {
    const author = await createAuthor("refunds");
    const { reader, orderId, paymentId, returnedTo } = await paidOrder(
      [{ productId: BOOKMARKS, quantity: 1 }],
      "thanked",
    );
    expect(returnedTo).toBe(`/orders/${orderId}?returned`);
    expect((await orderPage(reader.cookie, orderId, "?returned")).thanks).toBe(true);
    expect((await orderPage(reader.cookie, orderId)).thanks).toBe(false);
    expect(await refundPayment(paymentId, 500, "Goodwill", author)).toEqual({ ok: true });
    expect((await orderPage(reader.cookie, orderId, "?returned")).thanks).toBe(false);
  });
});

describe.each(drivers)("coin notices, on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  const mailsWith = (email: string, text: string) =>
    mailsTo(dataDir, email).filter((mail) => mail.includes(text));

  async function buyPack(reader: { id: number; email: string }) {
    const { paymentId, url } = await startCheckout(
      reader,
      { kind: "coins", packKey: "coins-5" },
      { ip: unique() },
    );
    await answerTestCheckout(url.replace("/pay/test/", ""), "approve");
    return paymentId;
  }

  it("a coin pack's receipt, and a line in the coin history; none e-mailed with account notices off", async () => {
    const reader = await createReader({ prefix: "packbuyer" });
    const paymentId = await buyPack(reader);
    const receipt = await waitForMail(dataDir, reader.email, { containing: "for 5 coins" });
    expect(receipt).toContain("receipt");
    expect(receipt).toContain("$0.99");
    const panels = await loadAccountPanels(reader);
    expect(panels.coins[0]).toMatchObject({
      delta: 5,
      reason: "purchase",
      reference: `payment:${paymentId}`,
    });
    expect(panels.purchases[0]).toMatchObject({ id: paymentId, kind: "coins", status: "paid" });

    const quiet = await createReader({ prefix: "quietbuyer" });
    await saveEmailChoices(quiet.id, { newChapters: false, accountNotices: false });
    const quietPayment = await buyPack(quiet);
    expect((await loadAccountPanels(quiet)).coins[0]).toMatchObject({ reference: `payment:${quietPayment}` });
    // A refund's e-mail (sent whatever the choices) leaves after a receipt would have: once it is in the
    // outbox, a receipt would be too.
    const author = await createAuthor("packrefunder");
    expect(await refundPayment(quietPayment, "rest", "Bought by mistake", author)).toEqual({ ok: true });
    await waitForMail(dataDir, quiet.email, { containing: "We refunded $0.99" });
    expect(mailsWith(quiet.email, "We received")).toEqual([]);
  });

  it("an author's coin adjustment: the reader is e-mailed the reason and finds it in the coin history", async () => {
    const author = await createAuthor("adjuster");
    const reader = await createReader({ prefix: "adjusted" });
    expect(await adjustCoins(reader.id, 7, "Sorry for the outage", author)).toEqual({ ok: true });
    const mail = await waitForMail(dataDir, reader.email, { containing: "Sorry for the outage" });
    expect(mail).toContain("The author added 7 coins to your balance");
    expect(mail).toContain("Your balance is now 10 coins");
    expect(mail).toContain("/account#coins");
    expect((await loadAccountPanels(reader)).coins[0]).toMatchObject({
      delta: 7,
      reason: "admin",
      note: "Sorry for the outage",
    });

    const quiet = await createReader({ prefix: "quietadjusted" });
    await saveEmailChoices(quiet.id, { newChapters: false, accountNotices: false });
    expect(await adjustCoins(quiet.id, -2, "Duplicate refund", author)).toEqual({ ok: true });
    expect((await loadAccountPanels(quiet)).coins[0]).toMatchObject({ delta: -2, note: "Duplicate refund" });
    // Notices on again: the next adjustment's e-mail arrives, and the one before it was never sent.
    await saveEmailChoices(quiet.id, { newChapters: false, accountNotices: true });
    expect(await adjustCoins(quiet.id, 1, "Welcome back", author)).toEqual({ ok: true });
    await waitForMail(dataDir, quiet.email, { containing: "Welcome back" });
    expect(mailsWith(quiet.email, "Duplicate refund")).toEqual([]);
  });
});
