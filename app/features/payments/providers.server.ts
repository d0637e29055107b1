import { getEnv } from "~/lib/env.server";
import type { PaymentProvider } from "./provider.server";
import { stripeProvider } from "./stripe-provider.server";
import { testProvider } from "./test-provider.server";

/** The configured provider (PAYMENT_PROVIDER), `test` by default. */
export function getProvider(): PaymentProvider {
  return getEnv().PAYMENT_PROVIDER === "stripe" ? stripeProvider() : testProvider();
}
