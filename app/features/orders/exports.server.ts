import { stringify } from "csv-stringify/sync";
import { asc, eq, gt } from "drizzle-orm";
import { db } from "#db/client.server";
import { orders, payments, users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { orderNumber } from "~/features/order-fulfilment/number";

/** Rows read at a time: an export of any size holds one batch in memory. */
const BATCH = 1000;

/**
 * One CSV line (RFC 4180, CRLF): a cell is quoted when it holds a comma, a quote or any line break (a bare LF
 * too: csv-stringify alone quotes only its record delimiter); a text a spreadsheet would run as a formula
 * (=, +, -, @, tab, carriage return first, or their full-width forms) gets an apostrophe first (OWASP's advice).
 */
export function csvLine(cells: (string | number | null)[]): string {
  return stringify([cells], { escape_formulas: true, record_delimiter: "windows", quoted_match: /[\r\n]/ });
}

const amount = (cents: number) => (cents / 100).toFixed(2);
const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Every row of a table in id order, a batch at a time (keyset: each batch starts after the last id). */
async function* batches<Row extends { id: number }>(read: (after: number) => Promise<Row[]>) {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    yield rows;
    const last = rows.at(-1);
    if (rows.length < BATCH || !last) return;
    after = last.id;
  }
}

const orderRows = (after: number) =>
  db()
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      status: orders.status,
      totalCents: orders.totalCents,
      currency: orders.currency,
      paymentId: orders.paymentId,
      refundedCents: payments.refundedCents,
      shipCountry: orders.shipCountry,
      shippedAt: orders.shippedAt,
      carrier: orders.carrier,
      trackingNumber: orders.trackingNumber,
      buyer: users.username,
      email: users.email,
    })
    .from(orders)
    .innerJoin(payments, eq(payments.id, orders.paymentId))
    .leftJoin(users, eq(users.id, orders.userId))
    .where(gt(orders.id, after))
    .orderBy(asc(orders.id))
    .limit(BATCH);

const paymentRows = (after: number) =>
  db()
    .select({
      id: payments.id,
      createdAt: payments.createdAt,
      paidAt: payments.paidAt,
      kind: payments.kind,
      description: payments.description,
      status: payments.status,
      amountCents: payments.amountCents,
      refundedCents: payments.refundedCents,
      currency: payments.currency,
      provider: payments.provider,
      providerPaymentId: payments.providerPaymentId,
      buyer: users.username,
      email: users.email,
    })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .where(gt(payments.id, after))
    .orderBy(asc(payments.id))
    .limit(BATCH);

/** The two exports for the author's accounting (ADR 43): a header line, then a line a row. */
const exports = {
  orders: {
    header: [
      "order",
      "created_at",
      "paid_at",
      "status",
      "total",
      "refunded",
      "currency",
      "payment",
      "buyer",
      "email",
      "country",
      "shipped_at",
      "carrier",
      "tracking_number",
    ],
    lines: async function* () {
      for await (const rows of batches(orderRows))
        for (const row of rows)
          yield csvLine([
            orderNumber(row.id),
            iso(row.createdAt),
            iso(row.paidAt),
            row.status,
            amount(row.totalCents),
            amount(row.refundedCents),
            row.currency,
            row.paymentId,
            row.buyer,
            row.email,
            row.shipCountry,
            iso(row.shippedAt),
            row.carrier,
            row.trackingNumber,
          ]);
    },
  },
  payments: {
    header: [
      "payment",
      "created_at",
      "paid_at",
      "kind",
      "description",
      "status",
      "amount",
      "refunded",
      "currency",
      "provider",
      "provider_payment",
      "buyer",
      "email",
    ],
    lines: async function* () {
      for await (const rows of batches(paymentRows))
        for (const row of rows)
          yield csvLine([
            row.id,
            iso(row.createdAt),
            iso(row.paidAt),
            row.kind,
            row.description,
            row.status,
            amount(row.amountCents),
            amount(row.refundedCents),
            row.currency,
            row.provider,
            row.providerPaymentId,
            row.buyer,
            row.email,
          ]);
    },
  },
} as const;

export type ExportName = keyof typeof exports;

/**
 * An export as a streamed CSV body (UTF-8 with a byte order mark, which spreadsheets need to read accents),
 * recorded in the audit log first: it carries readers' e-mail addresses.
 */
export async function exportCsv(name: ExportName, actor: Actor): Promise<ReadableStream<Uint8Array>> {
  await recordAudit(db(), actor, { action: `export.${name}`, subjectType: "export", subjectId: name });
  const { header, lines } = exports[name];
  const source = lines();
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvLine([...header])}`));
    },
    async pull(controller) {
      const next = await source.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}
