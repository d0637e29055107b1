import crypto from "node:crypto";
import { getEnv } from "~/lib/env.server";
import { BadSignature, type PaymentProvider, type ProviderEvent } from "./provider.server";

/**
 * The built-in test provider: a hosted page of our own (/pay/test/:session) that says it is a test and
 * lets the payer approve or decline. Its answer reaches the app as a signed event through the same
 * webhook path as Stripe's (verify, deduplicate by event id, fulfil), so nothing is granted any other way.
 */
export const TEST_SIGNATURE_HEADER = "x-test-payment-signature";
/** Events older (or newer) than this are refused, as Stripe does. */
export const TOLERANCE_SECONDS = 300;

export type TestEventBody = {
  id: string;
  type: "checkout.approved" | "checkout.declined";
  data: { session: string; amountCents: number; currency: string };
};

let processSecret: string | undefined;

/** TEST_PAYMENT_SECRET, or a random secret for this process (the hosted page signs in-process). */
export function testSigningSecret(): string {
  const configured = getEnv().TEST_PAYMENT_SECRET;
  if (configured) return configured;
  processSecret ??= crypto.randomBytes(32).toString("hex");
  return processSecret;
}

function hmac(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The signature header for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signTestEvent(body: string, secret = testSigningSecret(), now = Date.now()): string {
  const timestamp = Math.floor(now / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export function verifyTestSignature(
  body: string,
  header: string | null,
  secret = testSigningSecret(),
  now = Date.now(),
): void {
  if (!header) throw new BadSignature("no signature header");
  const parts = new Map(
    header.split(",").map((part) => {
      const index = part.indexOf("=");
      return [part.slice(0, index).trim(), part.slice(index + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get("t"));
  const given = parts.get("v1") ?? "";
  if (!Number.isInteger(timestamp)) throw new BadSignature("no timestamp");
  if (Math.abs(now / 1000 - timestamp) > TOLERANCE_SECONDS)
    throw new BadSignature("timestamp outside tolerance");
  const expected = Buffer.from(hmac(secret, timestamp, body), "hex");
  const actual = Buffer.from(/^[0-9a-f]+$/i.test(given) ? given : "", "hex");
  if (actual.length !== expected.length || !crypto.timingSafeEqual(actual, expected))
    throw new BadSignature("signature mismatch");
}

export function readTestEvent(body: TestEventBody): ProviderEvent {
  const { session, amountCents, currency } = body.data;
  return {
    id: body.id,
    type: body.type,
    effect:
      body.type === "checkout.approved"
        ? { kind: "paid", sessionId: session, amountCents, currency, providerPaymentId: `test_${session}` }
        : { kind: "failed", sessionId: session },
  };
}

function isTestEventBody(value: unknown): value is TestEventBody {
  const body = value as TestEventBody;
  return (
    typeof body?.id === "string" &&
    (body.type === "checkout.approved" || body.type === "checkout.declined") &&
    typeof body.data?.session === "string" &&
    Number.isInteger(body.data.amountCents) &&
    typeof body.data.currency === "string"
  );
}

export function testProvider(): PaymentProvider {
  return {
    name: "test",
    async createCheckout() {
      const sessionId = `tps_${crypto.randomBytes(18).toString("base64url")}`;
      return { sessionId, url: `/pay/test/${sessionId}` };
    },
    async verifyWebhook(rawBody, headers) {
      verifyTestSignature(rawBody, headers.get(TEST_SIGNATURE_HEADER));
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawBody);
      } catch {
        throw new BadSignature("signed body is not JSON");
      }
      if (!isTestEventBody(parsed)) throw new BadSignature("signed body is not a test payment event");
      return readTestEvent(parsed);
    },
  };
}
