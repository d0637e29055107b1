import { asc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { orderLines, orders, users } from "#db/schema";
import { sendInBackground } from "~/features/mail/mailer.server";
import { orderConfirmationMail, shippedMail } from "~/features/mail/templates.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { getEnv } from "~/lib/env.server";
import { formatMoney } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { countryName, shippingAddressLines } from "./address";
import { orderNumber } from "./number";
import { shippingColumns } from "./shipping-columns.server";

/**
 * After a product payment's transaction committed (ADR 25): the confirmation e-mail of its paid order, in
 * the buyer's language, sent in the background, so a mail server that is down never undoes the payment.
 */
export async function sendOrderConfirmation(paymentId: number): Promise<void> {
  try {
    const [order] = await db()
      .select({
        id: orders.id,
        status: orders.status,
        totalCents: orders.totalCents,
        currency: orders.currency,
        ...shippingColumns,
        email: users.email,
        username: users.username,
        language: users.language,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.paymentId, paymentId));
    if (order?.status !== "paid") return;
    const lines = await db()
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.id));
    const language = isLanguage(order.language) ? order.language : defaultLanguage;
    const money = (cents: number) => formatMoney(cents, order.currency, language);
    const address = shippingAddressLines({ ...order, country: countryName(order.shipCountry, language) });
    sendInBackground(
      orderConfirmationMail(language, order.email, {
        username: order.username,
        site: (await getSiteSettings()).title,
        number: orderNumber(order.id),
        link: `${getEnv().origin}/orders/${order.id}`,
        lines: lines.map((line) => ({
          name: line.variantLabel ? `${line.productName} (${line.variantLabel})` : line.productName,
          quantity: line.quantity,
          amount: money(line.unitPriceCents * line.quantity),
        })),
        total: money(order.totalCents),
        address,
      }),
    );
  } catch (error) {
    logger.error({ event: "order.mail-failed", paymentId, err: error }, "order confirmation not sent");
  }
}

/** After the author marked an order shipped: the buyer's e-mail with the carrier and tracking number. */
export async function sendShippedMail(orderId: number): Promise<void> {
  try {
    const [order] = await db()
      .select({
        carrier: orders.carrier,
        trackingNumber: orders.trackingNumber,
        email: users.email,
        username: users.username,
        language: users.language,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.id, orderId));
    if (!order) return;
    sendInBackground(
      shippedMail(isLanguage(order.language) ? order.language : defaultLanguage, order.email, {
        username: order.username,
        site: (await getSiteSettings()).title,
        number: orderNumber(orderId),
        carrier: order.carrier ?? "",
        tracking: order.trackingNumber ?? "",
        link: `${getEnv().origin}/orders/${orderId}`,
      }),
    );
  } catch (error) {
    logger.error({ event: "order.mail-failed", orderId, err: error }, "shipping e-mail not sent");
  }
}
