import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import {
  auditLog,
  coinLedger,
  galleryItems,
  membershipGrants,
  orders,
  payments,
  products,
  subscriptions,
} from "#db/schema";
import { deleteAccount } from "~/features/auth/commands.server";
import { saveCart } from "~/features/cart/queries.server";
import { getMembership } from "~/features/membership/queries.server";
import { csvLine, exportCsv } from "~/features/orders/exports.server";
import {
  getOrderForAdmin,
  listOrdersForAdmin,
  listPaymentsForAdmin,
  markShipped,
  orderIdOf,
  refundPayment,
} from "~/features/orders/money.server";
import { orderFilterSchema, paymentFilterSchema } from "~/features/orders/money-filters";
import { cancelSubscriptionSchema, moneyActionSchema } from "~/features/orders/order-forms";
import { placeOrder } from "~/features/orders/place.server";
import { getOwnOrder } from "~/features/orders/queries.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import {
  cancelSubscriptionForAuthor,
  listSubscriptionsForAdmin,
} from "~/features/subscriptions/admin.server";
import { parseForm } from "~/lib/forms";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader, shippingAddress } from "../support/factories";
import { waitForMail } from "../support/mail";
import { unique } from "../support/unique";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-money-admin-"));
process.env.DATA_DIR = dataDir;

const ART_PRINT = 3;
const BOOKMARKS = 1;

/** The form as the order or payment page posts it. */
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

/** A CSV body as a spreadsheet reads it, its byte order mark kept (Response.text() drops it). */
const csvText = async (body: Promise<ReadableStream<Uint8Array>>) =>
  new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(await body).arrayBuffer());

/** Orders and money in the admin (ADR 43): list, ship with tracking, refund through the provider, CSV. */
describe.each(drivers)("orders and payments in the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  let pieceId: number;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    const [piece] = await handle.db.select({ id: galleryItems.id }).from(galleryItems).limit(1);
    pieceId = piece?.id ?? 0;
  });
  afterAll(() => handle.close());

  const stockOf = async (id: number) =>
    (await handle.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]?.stock;
  const paymentOf = async (id: number) =>
    (await handle.db.select().from(payments).where(eq(payments.id, id)))[0];
  const liveGrants = (userId: number) =>
    handle.db
      .select()
      .from(membershipGrants)
      .where(and(eq(membershipGrants.userId, userId), isNull(membershipGrants.revokedAt)))
      .orderBy(asc(membershipGrants.unit));

  /** A reader who bought one Art Print on the test provider: a paid order of $25. */
  async function paidOrder(prefix = "printbuyer") {
    const reader = await createReader({ prefix });
    await saveCart(reader.id, [{ productId: ART_PRINT, variantId: pieceId, quantity: 1 }]);
    const placed = await placeOrder(reader, { ...shippingAddress, shipLine2: "" }, { ip: unique() });
    await answerTestCheckout(placed.url.replace("/pay/test/", ""), "approve");
    return { reader, ...placed };
  }

  it("marks a paid order shipped once: the buyer is e-mailed the tracking number and sees it; audited", async () => {
    const author = await createAuthor("shipper");
    const { reader, orderId } = await paidOrder();
    const shipping = { carrier: "Royal Mail", trackingNumber: "RM 1234-5678 GB" };
    expect(await markShipped(orderId, shipping, author)).toEqual({ ok: true });
    // The same form again (a double click, a second tab) finds the order no longer paid.
    expect(await markShipped(orderId, shipping, author)).toEqual({ ok: false, reason: "status" });
    expect(await markShipped(2_000_000_000, shipping, author)).toEqual({ ok: false, reason: "notFound" });

    const own = await getOwnOrder(reader.id, orderId);
    expect(own).toMatchObject({
      status: "shipped",
      carrier: "Royal Mail",
      trackingNumber: "RM 1234-5678 GB",
    });
    expect(own?.shippedAt).toBeInstanceOf(Date);
    const mail = await waitForMail(dataDir, reader.email, { containing: "RM 1234-5678 GB" });
    expect(mail).toContain(`#${String(orderId).padStart(6, "0")}`);
    expect(mail).toContain("Royal Mail");
    expect(mail).toContain(`/orders/${orderId}`);
    const audits = await handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.ship"), eq(auditLog.subjectId, String(orderId))));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: author.userId, before: { status: "paid" } });
  });

  it("refunds an order in full through the test provider: refunded, stock back, spend, tier and days reversed", async () => {
    const author = await createAuthor("refunder");
    const { reader, orderId, paymentId } = await paidOrder();
    const stock = await stockOf(ART_PRINT);
    expect((await liveGrants(reader.id)).map((grant) => grant.days)).toEqual([60]);
    expect(await getMembership(reader.id)).toMatchObject({ totalSpentCents: 2500 });

    expect(await refundPayment(paymentId, "rest", "Damaged in transit", author)).toEqual({ ok: true });
    expect(await paymentOf(paymentId)).toMatchObject({
      status: "refunded",
      refundedCents: 2500,
      refundRequestedCents: 2500,
    });
    expect((await getOrderForAdmin(orderId))?.status).toBe("refunded");
    expect(await stockOf(ART_PRINT)).toBe((stock ?? 0) + 1);
    expect(await liveGrants(reader.id)).toEqual([]);
    expect(await getMembership(reader.id)).toMatchObject({ tier: "free", totalSpentCents: 0 });
    // Nothing is left to refund, and a refunded order is not shipped.
    expect(await refundPayment(paymentId, 100, "Again", author)).toEqual({ ok: false, reason: "status" });
    expect(await markShipped(orderId, { carrier: "X", trackingNumber: "1" }, author)).toEqual({
      ok: false,
      reason: "status",
    });
    const [audit] = await handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "payment.refund"), eq(auditLog.subjectId, String(paymentId))));
    expect(audit).toMatchObject({
      actorId: author.userId,
      after: { refundCents: 2500, refundedCents: 2500, note: "Damaged in transit" },
    });
  });

  it("refunds part of a payment: the order stays, what is left shrinks, more than is left is refused", async () => {
    const author = await createAuthor("partial");
    const { orderId, paymentId } = await paidOrder();
    expect(await refundPayment(paymentId, 1000, "Late delivery", author)).toEqual({ ok: true });
    expect(await paymentOf(paymentId)).toMatchObject({ status: "paid", refundedCents: 1000 });
    expect((await getOrderForAdmin(orderId))?.payment).toMatchObject({
      refundedCents: 1000,
      refundable: 1500,
    });
    expect(await refundPayment(paymentId, 1501, "Too much", author)).toEqual({
      ok: false,
      reason: "tooMuch",
    });
    expect(await refundPayment(paymentId, 1500, "The rest", author)).toEqual({ ok: true });
    expect(await paymentOf(paymentId)).toMatchObject({ status: "refunded", refundedCents: 2500 });
    expect((await getOrderForAdmin(orderId))?.status).toBe("refunded");
  });

  it("keeps a deleted account's order, payment and ledger for the accounts, anonymised; a refund still works", async () => {
    const author = await createAuthor("after_deletion");
    const { reader, orderId, paymentId } = await paidOrder("leaving");
    const ledgerBefore = await handle.db.select().from(coinLedger).where(eq(coinLedger.userId, reader.id));
    expect(ledgerBefore.length).toBeGreaterThan(0);
    await deleteAccount(reader.id, reader.password);

    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      userId: null,
      status: "paid",
      totalCents: 2500,
      shipName: null,
      shipLine1: null,
      shipCity: null,
      shipPostalCode: null,
      dedication: null,
      shipCountry: "GB",
    });
    expect(await paymentOf(paymentId)).toMatchObject({ userId: null, status: "paid", amountCents: 2500 });
    const ledgerIds = ledgerBefore.map((entry) => entry.id);
    const kept = await handle.db.select().from(coinLedger).where(inArray(coinLedger.id, ledgerIds));
    expect(kept.map((entry) => [entry.userId, entry.delta])).toEqual(
      ledgerBefore.map((e) => [null, e.delta]),
    );
    const listed = await getOrderForAdmin(orderId);
    expect(listed?.payment).toMatchObject({ buyerId: null, buyer: null, email: null });
    expect((await listOrdersForAdmin({ q: String(orderId) })).orders[0]).toMatchObject({
      id: orderId,
      buyer: null,
    });

    expect(await refundPayment(paymentId, "rest", "Account closed", author)).toEqual({ ok: true });
    expect(await paymentOf(paymentId)).toMatchObject({ status: "refunded", refundedCents: 2500 });
    expect((await getOrderForAdmin(orderId))?.status).toBe("refunded");
  });

  it("lists support subscriptions granting their tier, and cancels one at its period end through the provider", async () => {
    const author = await createAuthor("subscription_keeper");
    const backer = await createReader({ prefix: "backer_admin" });
    const { url } = await startCheckout(
      backer,
      { kind: "subscription", tierKey: "analyst" },
      { ip: unique() },
    );
    await answerTestCheckout(url.replace("/pay/test/", ""), "approve");
    const [sub] = await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, backer.id));
    if (!sub) throw new Error("no subscription");
    const listed = await listSubscriptionsForAdmin({ tier: "analyst", current: true });
    expect(listed.subscriptions.find((row) => row.id === sub.id)).toMatchObject({
      subscriber: backer.username,
      phase: "active",
      cancellable: true,
    });
    expect(
      (await listSubscriptionsForAdmin({ tier: "observer" })).subscriptions.map((row) => row.id),
    ).not.toContain(sub.id);

    expect(await cancelSubscriptionForAuthor(sub.id, "Asked by e-mail", author)).toEqual({ ok: true });
    const [cancelled] = await handle.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(cancelled).toMatchObject({ cancelAtPeriodEnd: true, status: "active" });
    expect(await getMembership(backer.id)).toMatchObject({ tier: "analyst", source: "subscription" });
    expect(await cancelSubscriptionForAuthor(sub.id, "Again", author)).toEqual({
      ok: false,
      reason: "status",
    });
    expect(await cancelSubscriptionForAuthor(2_000_000_000, "None", author)).toEqual({
      ok: false,
      reason: "notFound",
    });
    const audits = await handle.db.select().from(auditLog).where(eq(auditLog.action, "subscription.cancel"));
    expect(audits.filter((entry) => entry.subjectId === String(sub.id))).toHaveLength(1);
  });

  it("lists orders and payments by status, number and buyer, and exports them as CSV", async () => {
    const { reader, orderId, paymentId } = await paidOrder("listed_buyer");
    const byBuyer = await listOrdersForAdmin({ q: reader.username.toUpperCase() });
    expect(byBuyer.orders.map((order) => order.id)).toEqual([orderId]);
    expect((await listOrdersForAdmin({ q: `#${String(orderId).padStart(6, "0")}` })).orders[0]?.id).toBe(
      orderId,
    );
    expect((await listOrdersForAdmin({ status: "cancelled", q: reader.username })).orders).toEqual([]);
    expect((await listPaymentsForAdmin({ kind: "product", q: reader.email })).payments[0]?.id).toBe(
      paymentId,
    );
    expect((await listPaymentsForAdmin({ kind: "coins", q: reader.email })).payments).toEqual([]);

    const author = await createAuthor("accountant");
    const csv = await csvText(exportCsv("orders", author));
    expect(csv.startsWith("\uFEFForder,created_at,paid_at,status,total,refunded,currency,")).toBe(true);
    expect(csv).toContain(`#${String(orderId).padStart(6, "0")},`);
    expect(csv).toContain(`,paid,25.00,0.00,USD,${paymentId},${reader.username},${reader.email},GB,`);
    const paymentsCsv = await csvText(exportCsv("payments", author));
    expect(paymentsCsv.split("\r\n")[0]).toBe(
      "\uFEFFpayment,created_at,paid_at,kind,description,status,amount,refunded,currency,provider,provider_payment,buyer,email",
    );
    expect(paymentsCsv).toContain(`\r\n${paymentId},`);
    const exported = await handle.db.select().from(auditLog).where(eq(auditLog.action, "export.orders"));
    expect(exported.some((entry) => entry.actorId === author.userId)).toBe(true);
  });
});

describe("money forms and CSV cells", () => {
  it("reads order numbers as typed", () => {
    expect(orderIdOf("#000042")).toBe(42);
    expect(orderIdOf(" 42 ")).toBe(42);
    expect(orderIdOf("4x2")).toBeUndefined();
    expect(orderIdOf("#")).toBeUndefined();
  });

  it("quotes what needs quoting and disarms formulas", () => {
    const cell = (value: string | number | null) => csvLine([value]).slice(0, -2);
    expect(cell('Ilse "the Bell" Marrow')).toBe('"Ilse ""the Bell"" Marrow"');
    expect(cell("a,b")).toBe('"a,b"');
    expect(cell("line\nbreak")).toBe('"line\nbreak"');
    expect(cell("cr\ronly")).toBe('"cr\ronly"');
    expect(cell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(cell("\uFF1DHYPERLINK(1)")).toBe("'\uFF1DHYPERLINK(1)");
    expect(cell("-5")).toBe("'-5");
    expect(cell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(cell(-5)).toBe("-5");
    expect(cell(null)).toBe("");
    expect(csvLine(["a", null, 1])).toBe("a,,1\r\n");
  });

  it("need a confirmation, a carrier and tracking number, a reason and an amount in cents", () => {
    const ship = parseForm(
      moneyActionSchema,
      form({ intent: "ship", carrier: "DHL", trackingNumber: "JD0146" }),
    );
    expect(ship.ok ? undefined : ship.errors).toEqual({ confirm: "admin.money.errors.confirm" });
    const bad = parseForm(
      moneyActionSchema,
      form({ intent: "ship", carrier: " ", trackingNumber: "<script>", confirm: "on" }),
    );
    expect(bad.ok ? undefined : Object.keys(bad.errors).sort()).toEqual(["carrier", "trackingNumber"]);
    const amounts = (amount: string) =>
      parseForm(moneyActionSchema, form({ intent: "refund", amount, note: "Because", confirm: "on" }));
    expect(amounts("12.5")).toMatchObject({ ok: true, data: { amount: 1250 } });
    expect(amounts("12,05")).toMatchObject({ ok: true, data: { amount: 1205 } });
    expect(amounts("")).toMatchObject({ ok: true, data: { amount: "rest" } });
    for (const wrong of ["0", "0.00", "-1", "1.234", "1e3", "12345678", "abc"])
      expect(amounts(wrong)).toMatchObject({ ok: false, errors: { amount: "admin.money.errors.amount" } });
  });

  it("name the subscription to cancel in the intent, with a reason and a confirmation", () => {
    expect(
      parseForm(cancelSubscriptionSchema, form({ intent: "cancel-42", note: "Asked", confirm: "on" })),
    ).toMatchObject({ ok: true, data: { subscription: 42, note: "Asked" } });
    for (const intent of ["cancel-", "cancel-x", "cancel-12345678901", "delete-1"])
      expect(parseForm(cancelSubscriptionSchema, form({ intent, note: "Asked", confirm: "on" })).ok).toBe(
        false,
      );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 400 }), (intent, note) => {
        const parsed = parseForm(cancelSubscriptionSchema, form({ intent, note, confirm: "on" }));
        if (parsed.ok) expect(parsed.data.subscription).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 200 },
    );
  });

  it("read any list query string without an error: what is out of range is ignored (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("status", "kind", "q", "before"),
          fc.oneof(
            fc.string({ maxLength: 400 }),
            fc.constantFrom("paid", "coins", "0", "-1", "2147483648", "7"),
          ),
        ),
        (query) => {
          const orders = orderFilterSchema.parse(query);
          const payments = paymentFilterSchema.parse(query);
          for (const filter of [orders, payments]) {
            expect((filter.q ?? "").length).toBeLessThanOrEqual(254);
            if (filter.before !== undefined) expect(filter.before).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never throw on any fields (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("intent", "carrier", "trackingNumber", "amount", "note", "confirm"),
          fc.oneof(fc.string({ maxLength: 400 }), fc.constantFrom("ship", "refund", "on", "1.5")),
        ),
        (fields) => {
          const parsed = parseForm(moneyActionSchema, form(fields));
          if (parsed.ok && parsed.data.intent === "refund" && parsed.data.amount !== "rest")
            expect(parsed.data.amount).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.runIf(drivers.includes("postgres"))("orders and payments in the admin under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  async function paidOrder() {
    const reader = await createReader({ prefix: "racer" });
    await saveCart(reader.id, [{ productId: BOOKMARKS, variantId: null, quantity: 1 }]);
    const placed = await placeOrder(reader, { ...shippingAddress, shipLine2: "" }, { ip: unique() });
    await answerTestCheckout(placed.url.replace("/pay/test/", ""), "approve");
    return { reader, ...placed };
  }

  it("ships an order from five tabs at once: one shipment, one e-mail", async () => {
    const author = await createAuthor("racer_shipper");
    const { reader, orderId } = await paidOrder();
    const outcomes = await Promise.all(
      [0, 1, 2, 3, 4].map((n) => markShipped(orderId, { carrier: "DHL", trackingNumber: `JD${n}` }, author)),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    const audits = await handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.ship"), eq(auditLog.subjectId, String(orderId))));
    expect(audits).toHaveLength(1);
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(audits[0]?.after).toMatchObject({ trackingNumber: order?.trackingNumber });
    await waitForMail(dataDir, reader.email, { containing: order?.trackingNumber ?? "" });
  });

  it("refunds $10 of a $15 payment four times at once: one is made, never more than was paid", async () => {
    const author = await createAuthor("racer_refunder");
    const { paymentId } = await paidOrder();
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map(() => refundPayment(paymentId, 1000, "Race", author)),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok).map((o) => !o.ok && o.reason)).toEqual([
      "tooMuch",
      "tooMuch",
      "tooMuch",
    ]);
    const [payment] = await handle.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment).toMatchObject({ refundedCents: 1000, refundRequestedCents: 1000, status: "paid" });
  });

  it("ships and refunds at once: either the order is shipped then refunded, or refunded and not shipped", async () => {
    const author = await createAuthor("racer_both");
    const { orderId, paymentId } = await paidOrder();
    const [shipped] = await Promise.all([
      markShipped(orderId, { carrier: "DHL", trackingNumber: "JD99" }, author),
      refundPayment(paymentId, "rest", "Race", author),
    ]);
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe("refunded");
    expect(order?.shippedAt !== null).toBe(shipped.ok);
  });
});
