import { eq, inArray } from "drizzle-orm";
import { db } from "#db/client.server";
import { galleryItems, orderLines, orders, payments, products } from "#db/schema";
import { getCart, type LineProblem, type PricedLine, priceLines } from "~/features/cart/queries.server";
import { orderNumber } from "~/features/order-fulfilment/number";
import { cancelPendingOrder } from "~/features/order-fulfilment/order-events.server";
import { SoldOut, type Tx, takeUnits } from "~/features/order-fulfilment/stock.server";
import {
  CheckoutError,
  openCheckout,
  orderReturnPath,
  throttleCheckout,
} from "~/features/payments/checkout.server";
import { getProvider } from "~/features/payments/providers.server";
import { getEnv } from "~/lib/env.server";
import { AppError } from "~/lib/errors";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import { logger } from "~/lib/logger.server";
import { type CheckoutNeeds, checkoutFormSchema, readCheckoutForm } from "./address";

/** An order that cannot be placed as the cart stands: 409 with a message naming the item (`values.item`). */
export class OrderError extends AppError {
  override name = "OrderError";
  constructor(
    code: string,
    status: number,
    messageKey: string,
    readonly values: Record<string, string> = {},
  ) {
    super(code, status, messageKey);
  }
}

/** The checkout form did not hold: 400 with a message key per field. */
export class CheckoutFormError extends AppError {
  override name = "CheckoutFormError";
  constructor(readonly errors: FieldErrors) {
    super("bad-form", 400, "checkout.errors.form");
  }
}

const problemKeys: Record<LineProblem, string> = {
  "unknown-product": "checkout.problems.unknown",
  "not-for-sale": "checkout.problems.notForSale",
  "variant-required": "checkout.problems.variantRequired",
  "unknown-variant": "checkout.problems.unknownVariant",
  "sold-out": "checkout.problems.soldOut",
  "over-stock": "checkout.problems.overStock",
};

export type CartProblem = {
  messageKey: string;
  item: string;
  stock: number;
  productId: number;
  variantId: number | null;
};

/** The reader's stored cart as the server prices it: lines, problems (each naming its item), totals and needs. */
export async function checkoutCart(userId: number) {
  const { priced, problems } = await priceLines(await getCart(userId));
  const ids = problems.map((problem) => problem.line.productId);
  const named = ids.length
    ? await db()
        .select({ id: products.id, name: products.name, stock: products.stock })
        .from(products)
        .where(inArray(products.id, ids))
    : [];
  return {
    lines: priced,
    problems: problems.map(({ line, problem }): CartProblem => {
      const product = named.find((p) => p.id === line.productId);
      return {
        messageKey: problemKeys[problem],
        item: product?.name ?? "",
        stock: product?.stock ?? 0,
        productId: line.productId,
        variantId: line.variantId,
      };
    }),
    totalCents: priced.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0),
    currency: priced[0]?.currency ?? "USD",
    needs: {
      shipping: priced.some((line) => line.requiresShipping),
      dedication: priced.some((line) => line.offersDedication),
    } satisfies CheckoutNeeds,
  };
}

/** A gallery piece a line names was deleted between reading the cart and recording the order. */
class PieceGone extends Error {
  override name = "PieceGone";
  constructor(readonly variantId: number) {
    super(`gallery piece ${variantId} is gone`);
  }
}

/**
 * Holds the gallery pieces the lines name `FOR SHARE` until the order is in: the admin's deletion of a piece
 * locks it `FOR UPDATE` and counts the order lines naming it (gallery/gallery-editing.server.ts), so either the
 * deletion waits and then sees this order's lines, or this order waits and finds the piece gone.
 */
async function holdPieces(tx: Tx, lines: PricedLine[]) {
  const ids = [...new Set(lines.flatMap((line) => (line.variantId === null ? [] : [line.variantId])))].sort(
    (a, b) => a - b,
  );
  if (!ids.length) return;
  const held = await tx
    .select({ id: galleryItems.id })
    .from(galleryItems)
    .where(inArray(galleryItems.id, ids))
    .orderBy(galleryItems.id)
    .for("share");
  const gone = ids.find((id) => !held.some((piece) => piece.id === id));
  if (gone !== undefined) throw new PieceGone(gone);
}

const lineName = (line: { name: string; variantLabel: string | null }) =>
  line.variantLabel ? `${line.name} (${line.variantLabel})` : line.name;

/** The order and its payment in one transaction, the units taken from stock first (ADR 25). */
async function recordOrder(
  user: { id: number },
  lines: PricedLine[],
  totalCents: number,
  currency: string,
  form: ReturnType<typeof readCheckoutForm>,
) {
  const reservedUntil = new Date(Date.now() + getEnv().ORDER_RESERVATION_MINUTES * 60_000);
  return db().transaction(async (tx) => {
    await holdPieces(tx, lines);
    await takeUnits(tx, lines);
    const [payment] = await tx
      .insert(payments)
      .values({
        userId: user.id,
        kind: "product",
        provider: getProvider().name,
        amountCents: totalCents,
        currency,
        description: "Order",
        membershipDays: 0,
      })
      .returning();
    if (!payment) throw new Error("payment not recorded");
    const { shipping } = form;
    const [order] = await tx
      .insert(orders)
      .values({
        userId: user.id,
        paymentId: payment.id,
        totalCents,
        currency,
        shipName: shipping?.name,
        shipLine1: shipping?.line1,
        shipLine2: shipping?.line2,
        shipCity: shipping?.city,
        shipPostalCode: shipping?.postalCode,
        shipCountry: shipping?.country,
        dedication: form.dedication,
        reservedUntil,
      })
      .returning();
    if (!order) throw new Error("order not recorded");
    await tx.insert(orderLines).values(
      lines.map((line) => ({
        orderId: order.id,
        productId: line.productId,
        variantId: line.variantId,
        productName: line.name,
        variantLabel: line.variantLabel,
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
        membershipDays: line.membershipDays,
      })),
    );
    const description = `Order ${orderNumber(order.id)}`;
    await tx.update(payments).set({ description }).where(eq(payments.id, payment.id));
    return { order, payment: { ...payment, description } };
  });
}

/**
 * Places the reader's stored cart as an order and opens its checkout at the provider (ADR 25). The lines
 * and prices come from the database only; the form brings the address and the dedication, checked with
 * the same schema as in the browser. Throws CheckoutFormError (400), OrderError (409: the cart does not
 * hold, an item sold out meanwhile), or CheckoutError (429, 503: the stock is given back).
 */
export async function placeOrder(
  user: { id: number; email: string },
  fields: Record<string, unknown>,
  { ip }: { ip: string },
): Promise<{ orderId: number; paymentId: number; url: string }> {
  const cart = await checkoutCart(user.id);
  if (!cart.lines.length && !cart.problems.length)
    throw new OrderError("empty-cart", 409, "checkout.errors.emptyCart");
  const problem = cart.problems[0];
  if (problem)
    throw new OrderError("cart-problem", 409, problem.messageKey, {
      item: problem.item,
      left: String(problem.stock),
    });
  if (cart.lines.some((line) => line.currency !== cart.currency))
    throw new OrderError("mixed-currency", 409, "checkout.errors.mixedCurrency");
  const parsed = checkoutFormSchema(cart.needs).safeParse(fields);
  if (!parsed.success) {
    throw new CheckoutFormError(fieldErrors(parsed.error));
  }
  await throttleCheckout(ip);
  let recorded: Awaited<ReturnType<typeof recordOrder>>;
  try {
    recorded = await recordOrder(
      user,
      cart.lines,
      cart.totalCents,
      cart.currency,
      readCheckoutForm(parsed.data as Record<string, string | undefined>, cart.needs),
    );
  } catch (error) {
    if (error instanceof PieceGone) {
      const item = cart.lines.find((line) => line.variantId === error.variantId);
      throw new OrderError("cart-problem", 409, "checkout.problems.unknownVariant", {
        item: item?.name ?? "",
      });
    }
    if (!(error instanceof SoldOut)) throw error;
    const item = cart.lines.find((line) => line.productId === error.productId);
    throw new OrderError("sold-out", 409, "checkout.problems.soldOut", { item: item?.name ?? "" });
  }
  const { order, payment } = recorded;
  logger.info({ orderId: order.id, paymentId: payment.id, userId: user.id }, "order placed");
  try {
    const { url } = await openCheckout(user, payment, {
      mode: "payment",
      returnTo: orderReturnPath(order.id),
      lineItems: cart.lines.map((line) => ({
        name: lineName(line),
        unitAmountCents: line.unitPriceCents,
        quantity: line.quantity,
      })),
      expiresAt: order.reservedUntil,
    });
    return { orderId: order.id, paymentId: payment.id, url };
  } catch (error) {
    if (error instanceof CheckoutError)
      await db().transaction((tx) => cancelPendingOrder(tx, { orderId: order.id }, new Date()));
    throw error;
  }
}
