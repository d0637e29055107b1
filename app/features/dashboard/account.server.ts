import { getDatabase } from "#db/client.server";
import { COIN_HISTORY_LIMIT, type listCoinHistory } from "~/features/coins/history.server";
import { supporterPanel } from "~/features/fundraiser/account.server";
import type { getOwnWallEntry, listOwnGifts } from "~/features/fundraiser/supporters.server";
import type { listOrders } from "~/features/orders/queries.server";
import type { listPurchases } from "~/features/payments/queries.server";
import {
  listTierOptions,
  type SubscriptionRow,
  subscriptionView,
} from "~/features/subscriptions/queries.server";
import { fromIso, fromIsoOrNull, type JsonRow } from "~/lib/json-row";

/**
 * The reader's own lists on /account, in one statement planned once per connection (as the reader's records,
 * streaks/records.server.ts): what listPurchases, listOrders, getOwnWallEntry, listOwnGifts,
 * latestSubscription and listCoinHistory read, each as JSON from its own rows, in the same order and limits
 * (tests/integration/dashboard.test.ts compares the two). Five queries are five parses, plans and round
 * trips on PGlite's one connection, about 3 ms a visit; this is one.
 */
const panelsStatement = `select
  (select coalesce(json_agg(x order by x."createdAt" desc, x.id desc), '[]') from (select id, kind, status,
    description, coins, tier_key as "tierKey", amount_cents as "amountCents", currency,
    refunded_cents as "refundedCents", refund_tier_change as "refundTierChange", created_at as "createdAt"
    from payments where user_id = $1 order by created_at desc, id desc limit 50) x),
  (select coalesce(json_agg(x order by x."createdAt" desc, x.id desc), '[]') from (select o.id, o.status,
    o.total_cents as "totalCents", p.refunded_cents as "refundedCents", o.currency,
    o.created_at as "createdAt" from orders o join payments p on p.id = o.payment_id where o.user_id = $1
    order by o.created_at desc, o.id desc limit 50) x),
  (select row_to_json(x) from (select display, name, emoji, message, tier from supporters
    where user_id = $1) x),
  (select coalesce(json_agg(x order by x."createdAt" desc, x.id desc), '[]') from (select id,
    amount_cents as "amountCents", refunded_cents as "refundedCents", currency, status,
    created_at as "createdAt", paid_at as "paidAt" from payments where user_id = $1 and kind = 'gift'
    order by created_at desc, id desc limit 100) x),
  (select row_to_json(x) from (select provider, provider_subscription_id as "providerSubscriptionId",
    tier_key as "tierKey", pending_tier_key as "pendingTierKey", status, amount_cents as "amountCents",
    currency, current_period_end as "currentPeriodEnd", cancel_at_period_end as "cancelAtPeriodEnd",
    grace_until as "graceUntil", ended_at as "endedAt" from subscriptions where user_id = $1
    order by started_at desc, id desc limit 1) x),
  (select coalesce(json_agg(x order by x."createdAt" desc, x.id desc), '[]') from (select id, delta, reason,
    reference, note, created_at as "createdAt" from coin_ledger where user_id = $1
    order by created_at desc, id desc limit ${COIN_HISTORY_LIMIT}) x)`;

type CoinEntry = Awaited<ReturnType<typeof listCoinHistory>>[number];
type Purchase = Awaited<ReturnType<typeof listPurchases>>[number];
type Order = Awaited<ReturnType<typeof listOrders>>[number];
type WallEntry = NonNullable<Awaited<ReturnType<typeof getOwnWallEntry>>>;
type Gift = Awaited<ReturnType<typeof listOwnGifts>>[number];

type PanelsRow = [
  JsonRow<Purchase>[],
  JsonRow<Order>[],
  WallEntry | null,
  JsonRow<Gift>[],
  JsonRow<SubscriptionRow> | null,
  JsonRow<CoinEntry>[],
];

/** The purchases, orders, supporter panel and subscription panel of /account, as their own loaders give them. */
export async function loadAccountPanels(user: { id: number; username: string }, now = new Date()) {
  const [[row], tiers] = await Promise.all([
    getDatabase().preparedRows("account_panels", panelsStatement, [String(user.id)]),
    listTierOptions(),
  ]);
  const [purchases, orders, entry, gifts, sub, coins] = row as PanelsRow;
  return {
    purchases: purchases.map((purchase) => ({ ...purchase, createdAt: fromIso(purchase.createdAt) })),
    orders: orders.map((order) => ({ ...order, createdAt: fromIso(order.createdAt) })),
    coins: coins.map((coin) => ({ ...coin, createdAt: fromIso(coin.createdAt) })),
    supporter: supporterPanel(
      user,
      entry ?? undefined,
      gifts.map((gift) => ({
        ...gift,
        createdAt: fromIso(gift.createdAt),
        paidAt: fromIsoOrNull(gift.paidAt),
      })),
    ),
    subscription: {
      subscription: sub
        ? subscriptionView(
            {
              ...sub,
              currentPeriodEnd: fromIso(sub.currentPeriodEnd),
              graceUntil: fromIsoOrNull(sub.graceUntil),
              endedAt: fromIsoOrNull(sub.endedAt),
            },
            now,
          )
        : null,
      tiers,
    },
  };
}
