import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("uses the documented defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.origin).toBe("http://localhost:3000");
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ APP_ORIGIN: "ftp://example.com" }, "APP_ORIGIN"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  ])("refuses %j naming the variable", (source, name) => {
    expect(() => parseEnv(source)).toThrowError(ConfigError);
    expect(() => parseEnv(source)).toThrowError(new RegExp(`${name}:`));
  });

  it("takes APP_ORIGIN without its trailing slash", () => {
    expect(parseEnv({ APP_ORIGIN: "https://read.example/" }).origin).toBe("https://read.example");
  });
});

describe("payment settings", () => {
  it("defaults to the built-in test provider", () => {
    expect(parseEnv({}).PAYMENT_PROVIDER).toBe("test");
  });

  it("needs Stripe's keys when PAYMENT_PROVIDER=stripe, and says which", () => {
    expect(() => parseEnv({ PAYMENT_PROVIDER: "stripe" })).toThrowError(
      /STRIPE_SECRET_KEY: is required when PAYMENT_PROVIDER=stripe[\s\S]*STRIPE_WEBHOOK_SECRET: is required/,
    );
    const env = parseEnv({
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
    });
    expect(env.PAYMENT_PROVIDER).toBe("stripe");
  });

  it.each([
    [{ PAYMENT_PROVIDER: "paypal" }, "PAYMENT_PROVIDER"],
    [{ STRIPE_SECRET_KEY: "pk_test_abc" }, "STRIPE_SECRET_KEY"],
    [{ STRIPE_WEBHOOK_SECRET: "secret" }, "STRIPE_WEBHOOK_SECRET"],
    [{ STRIPE_API_BASE: "ftp://localhost" }, "STRIPE_API_BASE"],
    [{ TEST_PAYMENT_SECRET: "short" }, "TEST_PAYMENT_SECRET"],
    [{ CHECKOUT_LIMIT_PER_HOUR: "0" }, "CHECKOUT_LIMIT_PER_HOUR"],
  ])("refuses %j naming the variable", (source, name) => {
    expect(() => parseEnv(source)).toThrowError(new RegExp(`${name}:`));
  });
});
