import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local HTTP server answering the Stripe endpoints the app calls (checkout sessions, subscriptions, refunds), the way
 * Stripe does: form-encoded parameters, a Bearer secret key, idempotency keys (a repeated key returns the
 * first answer). `event()` builds webhook deliveries signed like Stripe's, with the stripe package itself.
 */
export type RecordedRequest = {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  params: URLSearchParams;
};

export const FAKE_SECRET_KEY = "sk_test_fake_local_key";
export const FAKE_WEBHOOK_SECRET = "whsec_fake_local_webhook_secret";

export async function startFakeStripe() {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  /** Subscriptions a test puts here (as Stripe would hold them after a checkout), by id. */
  const subscriptions = new Map<string, Record<string, unknown>>();
  /** Refunds made (POST /v1/refunds), by id. */
  const refunds = new Map<string, Record<string, unknown>>();
  const byIdempotencyKey = new Map<string, string>();
  let failNext = 0;

  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const params = new URLSearchParams(body);
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        idempotencyKey,
        authorization: req.headers.authorization,
        params,
      });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, {
          "content-type": "application/json",
          "request-id": `req_${crypto.randomUUID()}`,
        });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${FAKE_SECRET_KEY}`)
        return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
      if (failNext > 0) {
        failNext--;
        return send(500, { error: { type: "api_error", message: "Something went wrong" } });
      }
      if (req.method === "POST" && req.url === "/v1/checkout/sessions") {
        const known = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
        if (known) return send(200, sessions.get(known));
        const mode = params.get("mode");
        // The total, as Stripe computes it: each line's unit amount times its quantity.
        let amount = 0;
        for (let i = 0; params.has(`line_items[${i}][price_data][unit_amount]`); i++)
          amount +=
            Number(params.get(`line_items[${i}][price_data][unit_amount]`)) *
            Number(params.get(`line_items[${i}][quantity]`) ?? 1);
        const currency = params.get("line_items[0][price_data][currency]");
        if (!mode || !Number.isInteger(amount) || amount <= 0 || !currency || !params.get("success_url"))
          return send(400, { error: { type: "invalid_request_error", message: "Missing required param" } });
        // Stripe refuses an expiry less than 30 minutes or more than 24 hours ahead.
        const expiresAt = params.get("expires_at");
        const ahead = expiresAt === null ? undefined : Number(expiresAt) - Date.now() / 1000;
        if (ahead !== undefined && !(ahead >= 30 * 60 && ahead <= 24 * 60 * 60))
          return send(400, { error: { type: "invalid_request_error", message: "expires_at out of range" } });
        const id = `cs_test_${crypto.randomBytes(12).toString("hex")}`;
        const session = {
          id,
          object: "checkout.session",
          mode,
          amount_total: amount,
          currency,
          expires_at: expiresAt === null ? null : Number(expiresAt),
          client_reference_id: params.get("client_reference_id"),
          metadata: { paymentId: params.get("metadata[paymentId]") },
          payment_status: "unpaid",
          status: "open",
          payment_intent: null,
          subscription: null,
          invoice: null,
          url: `https://checkout.stripe.test/c/pay/${id}`,
        };
        sessions.set(id, session);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, id);
        return send(200, session);
      }
      if (req.method === "POST" && req.url === "/v1/refunds") {
        const known = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
        if (known) return send(200, refunds.get(known));
        const amount = Number(params.get("amount"));
        const intent = params.get("payment_intent");
        if (!intent || !Number.isInteger(amount) || amount <= 0)
          return send(400, { error: { type: "invalid_request_error", message: "Missing required param" } });
        const id = `re_${crypto.randomBytes(12).toString("hex")}`;
        const refund = { id, object: "refund", amount, payment_intent: intent, status: "succeeded" };
        refunds.set(id, refund);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, id);
        return send(200, refund);
      }
      const subscription = /^\/v1\/subscriptions\/([\w-]+)$/.exec(req.url ?? "");
      const held = subscription ? subscriptions.get(subscription[1] ?? "") : undefined;
      if (subscription && !held)
        return send(404, { error: { type: "invalid_request_error", message: "No such subscription" } });
      if (held && req.method === "GET") return send(200, held);
      if (held && req.method === "POST") {
        // Only what the app changes: cancel at the period end, the item's price, the metadata.
        if (params.has("cancel_at_period_end"))
          held.cancel_at_period_end = params.get("cancel_at_period_end") === "true";
        const amount = params.get("items[0][price_data][unit_amount]");
        if (amount !== null) {
          const items = held.items as { data: { price: { unit_amount: number } }[] };
          const item = items.data[0];
          if (item) item.price = { ...item.price, unit_amount: Number(amount) };
        }
        const tierKey = params.get("metadata[tierKey]");
        if (tierKey !== null) held.metadata = { ...(held.metadata as object), tierKey };
        return send(200, held);
      }
      send(404, {
        error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.url})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const signer = new Stripe(FAKE_SECRET_KEY);

  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    subscriptions,
    refunds,
    /** The next `count` API calls answer 500 (the client retries with the same idempotency key). */
    failNext(count: number) {
      failNext = count;
    },
    /** A webhook delivery: the JSON body and its Stripe-Signature header. */
    event(
      type: string,
      object: Record<string, unknown>,
      { id, secret, created }: { id?: string; secret?: string; created?: number } = {},
    ) {
      const payload = JSON.stringify({
        id: id ?? `evt_${crypto.randomBytes(12).toString("hex")}`,
        object: "event",
        api_version: "2025-01-01",
        created: created ?? Math.floor(Date.now() / 1000),
        type,
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
      const signature = signer.webhooks.generateTestHeaderString({
        payload,
        secret: secret ?? FAKE_WEBHOOK_SECRET,
      });
      return { payload, signature };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
