import { and, asc, count, eq, max, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { auditLog, cartItems, orderLines, products } from "#db/schema";
import { digestOf } from "~/features/audit/digest.server";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { violatedUniqueConstraint } from "~/lib/db-errors";
import { INT32_MAX } from "~/lib/parse";
import { PRODUCT_LIMITS, type ProductForm } from "./product-form";

type ProductRow = typeof products.$inferSelect;
type AdminActor = Actor & { via: "admin" };

type Executor = Pick<ReturnType<typeof db>, "select">;

/**
 * A digest of a product as it is, its stock left out, and of the last change the admin made to it (its
 * audit entry). Checkouts move the stock all day (they reserve and release units) and a form opened before
 * one is not stale for that: the form changes the stock by a number of units (`stockChange`), never sets it.
 * Every save is audited, so the same form sent twice (a double click, a resent page) is a conflict the
 * second time, and its units are never added twice.
 */
async function digest(executor: Executor, { id, stock: _stock, ...row }: ProductRow) {
  const [last] = await executor
    .select({ id: max(auditLog.id) })
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "product"), eq(auditLog.subjectId, String(id))));
  return digestOf({ ...row, lastChange: last?.id ?? null });
}

/** What the audit log keeps of a product: its fields, and of its description only the size. */
const logged = ({ descriptionMd, ...row }: ProductRow) => ({ ...row, characters: descriptionMd.length });

/** The form's fields as the table's columns (the stock is the caller's). */
const columns = ({ base: _base, stock: _stock, stockChange: _change, ...fields }: ProductForm) => fields;

/** Every product, by id, with its price and stock, for the admin's list. */
export function listProductsForAdmin() {
  return db()
    .select({
      id: products.id,
      name: products.name,
      category: products.category,
      priceCents: products.priceCents,
      currency: products.currency,
      stock: products.stock,
    })
    .from(products)
    .orderBy(asc(products.id));
}

/** A product as its form opens it, with its digest. */
export async function getProductForEdit(id: number) {
  const [row] = await db().select().from(products).where(eq(products.id, id));
  return row && { row, base: await digest(db(), row) };
}

export type ProductSaveOutcome =
  | { ok: true; id: number }
  | { ok: false; reason: "notFound" | "conflict" }
  | { ok: false; reason: "stockShort" | "stockOver"; stock: number };

/** Today at 00:00 UTC: a product's date is a day, as the content files write it (so it exports as it is). */
function today() {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** How many times a create takes the next id again after another create took it first. */
const CREATE_ATTEMPTS = 5;

/**
 * A new product with the next free id (`products.id` is a plain integer: ids are the content files' names).
 * The id is the largest plus one, read in the insert itself; two creates at once may read the same one,
 * and the primary key lets one of them in: the other tries again with the next id.
 */
export async function createProduct(input: ProductForm, actor: AdminActor): Promise<ProductSaveOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().transaction(async (tx) => {
        const [last] = await tx.select({ id: max(products.id) }).from(products);
        const id = (last?.id ?? 0) + 1;
        if (id > INT32_MAX) throw new Error("no product id left");
        const [created] = await tx
          .insert(products)
          .values({ ...columns(input), id, stock: input.stock ?? 0, addedAt: today() })
          .returning();
        if (!created) throw new Error("no product created");
        await recordAudit(tx, actor, {
          action: "product.create",
          subjectType: "product",
          subjectId: id,
          after: logged(created),
        });
        return { ok: true, id } as const;
      });
    } catch (error) {
      if (violatedUniqueConstraint(error) !== "products_pkey" || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Saves a product from the version with digest `base`: the row is locked and compared, and a save from a
 * product changed since is a conflict. The stock moves by `stockChange` from what it is under the lock
 * (`stock + N`), so a checkout's reservation made after the form opened stays taken; a change that would
 * leave fewer than 0 or more than the limit is refused with the stock as it is.
 */
export async function saveProduct(
  id: number,
  input: ProductForm,
  actor: AdminActor,
): Promise<ProductSaveOutcome> {
  const change = input.stockChange ?? 0;
  return db().transaction(async (tx) => {
    const [current] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    if (!current) return { ok: false, reason: "notFound" } as const;
    if ((await digest(tx, current)) !== input.base) return { ok: false, reason: "conflict" } as const;
    const stock = current.stock + change;
    if (stock < 0) return { ok: false, reason: "stockShort", stock: current.stock } as const;
    if (stock > PRODUCT_LIMITS.stock)
      return { ok: false, reason: "stockOver", stock: current.stock } as const;
    const [saved] = await tx
      .update(products)
      .set({ ...columns(input), stock: sql`${products.stock} + ${change}` })
      .where(eq(products.id, id))
      .returning();
    if (!saved) throw new Error(`product ${id} vanished under its lock`);
    await recordAudit(tx, actor, {
      action: "product.update",
      subjectType: "product",
      subjectId: id,
      before: logged(current),
      after: { ...logged(saved), stockChange: change },
    });
    return { ok: true, id } as const;
  });
}

export type ProductDeleteOutcome =
  | { ok: true; name: string }
  | { ok: false; reason: "notFound" }
  | { ok: false; reason: "inUse"; carts: number; orders: number };

/**
 * Deletes a product that no cart line and no order line names (an order's payment names its products
 * through its lines). The row is locked first: a checkout takes its units with an update of the same row
 * before it writes its order lines, so either the checkout commits first and the deletion sees its lines
 * (refused), or the deletion commits first and the checkout finds no units to take (sold out).
 */
export function deleteProduct(id: number, actor: AdminActor): Promise<ProductDeleteOutcome> {
  return db().transaction(async (tx) => {
    const [current] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    if (!current) return { ok: false, reason: "notFound" } as const;
    const [carts] = await tx.select({ n: count() }).from(cartItems).where(eq(cartItems.productId, id));
    const [ordered] = await tx.select({ n: count() }).from(orderLines).where(eq(orderLines.productId, id));
    const inCarts = carts?.n ?? 0;
    const inOrders = ordered?.n ?? 0;
    if (inCarts || inOrders) return { ok: false, reason: "inUse", carts: inCarts, orders: inOrders } as const;
    await tx.delete(products).where(eq(products.id, id));
    await recordAudit(tx, actor, {
      action: "product.delete",
      subjectType: "product",
      subjectId: id,
      before: logged(current),
    });
    return { ok: true, name: current.name } as const;
  });
}
