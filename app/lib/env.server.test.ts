import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, logLevelFrom, parseEnv } from "./env.server";

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
    [{ SIGNUP_LIMIT_PER_HOUR: "unlimited" }, "SIGNUP_LIMIT_PER_HOUR"],
    [{ SIGNUP_LIMIT_PER_HOUR: "0" }, "SIGNUP_LIMIT_PER_HOUR"],
    [{ SIGNUP_LIMIT_PER_HOUR: "2.5" }, "SIGNUP_LIMIT_PER_HOUR"],
    [{ RESET_LIMIT_PER_HOUR: "unlimited" }, "RESET_LIMIT_PER_HOUR"],
    [{ RESET_LIMIT_PER_HOUR: "-1" }, "RESET_LIMIT_PER_HOUR"],
    [{ INQUIRY_LIMIT_PER_HOUR: "0" }, "INQUIRY_LIMIT_PER_HOUR"],
    [{ AUTHOR_EMAIL: "mara at example" }, "AUTHOR_EMAIL"],
  ])("refuses %j naming the variable", (source, name) => {
    expect(() => parseEnv(source)).toThrowError(new RegExp(`${name}:`));
  });
});

describe("sign-up and reset limits", () => {
  it("default to 20 and 10 an hour and take whole numbers", () => {
    expect(parseEnv({})).toMatchObject({ SIGNUP_LIMIT_PER_HOUR: 20, RESET_LIMIT_PER_HOUR: 10 });
    expect(parseEnv({ SIGNUP_LIMIT_PER_HOUR: "5", RESET_LIMIT_PER_HOUR: "3" })).toMatchObject({
      SIGNUP_LIMIT_PER_HOUR: 5,
      RESET_LIMIT_PER_HOUR: 3,
    });
  });
});

describe("the order reservation", () => {
  it("holds an order 30 minutes unless set, 1 to 1440", () => {
    expect(parseEnv({}).ORDER_RESERVATION_MINUTES).toBe(30);
    expect(parseEnv({ ORDER_RESERVATION_MINUTES: "1440" }).ORDER_RESERVATION_MINUTES).toBe(1440);
    for (const wrong of ["0", "1441", "2.5", "soon"])
      expect(() => parseEnv({ ORDER_RESERVATION_MINUTES: wrong })).toThrowError(/ORDER_RESERVATION_MINUTES:/);
  });
});

describe("the admission gate's bounds (ADR 68)", () => {
  it("are off and queue 256 unless set; 0 turns the gate off; whole numbers in range", () => {
    expect(parseEnv({})).toMatchObject({ RENDERS_IN_FLIGHT: 0, RENDERS_QUEUED: 256 });
    expect(parseEnv({ RENDERS_IN_FLIGHT: "0", RENDERS_QUEUED: "10000" })).toMatchObject({
      RENDERS_IN_FLIGHT: 0,
      RENDERS_QUEUED: 10_000,
    });
    for (const wrong of ["-1", "257", "1.5", "many", "1e3"])
      expect(() => parseEnv({ RENDERS_IN_FLIGHT: wrong })).toThrowError(/RENDERS_IN_FLIGHT:/);
    for (const wrong of ["0", "10001", "2.5", "all"])
      expect(() => parseEnv({ RENDERS_QUEUED: wrong })).toThrowError(/RENDERS_QUEUED:/);
  });
});

describe("the progress batch size (ADR 67)", () => {
  it("writes 500 together unless set; any whole number from 1 to 1000, nothing else", () => {
    expect(parseEnv({}).PROGRESS_BATCH_MAX).toBe(500);
    expect(parseEnv({ PROGRESS_BATCH_MAX: "1" }).PROGRESS_BATCH_MAX).toBe(1);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (value) => {
        const number = Number(value);
        const valid = value.trim() !== "" && Number.isInteger(number) && number >= 1 && number <= 1000;
        if (valid) expect(parseEnv({ PROGRESS_BATCH_MAX: value }).PROGRESS_BATCH_MAX).toBe(Number(value));
        else if (value.trim() !== "")
          expect(() => parseEnv({ PROGRESS_BATCH_MAX: value })).toThrowError(/PROGRESS_BATCH_MAX:/);
      }),
    );
    for (const wrong of ["0", "1001", "2.5", "many", "-3"])
      expect(() => parseEnv({ PROGRESS_BATCH_MAX: wrong })).toThrowError(/PROGRESS_BATCH_MAX:/);
  });
});

describe("the payment provider in production", () => {
  const production = { NODE_ENV: "production", APP_ORIGIN: "https://read.example" };

  it("must be chosen when NODE_ENV=production serves an https origin, and the message says so", () => {
    expect(() => parseEnv(production)).toThrowError(ConfigError);
    expect(() => parseEnv(production)).toThrowError(/PAYMENT_PROVIDER: is required in production/);
  });

  it("may be the test provider when chosen explicitly, and then payments are marked simulated", () => {
    const env = parseEnv({ ...production, PAYMENT_PROVIDER: "test" });
    expect(env).toMatchObject({ PAYMENT_PROVIDER: "test", publicProduction: true, simulatedPayments: true });
  });

  it("is not simulated with Stripe", () => {
    const env = parseEnv({
      ...production,
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
    });
    expect(env.simulatedPayments).toBe(false);
  });

  it.each([
    [{ NODE_ENV: "production" }],
    [{ NODE_ENV: "production", APP_ORIGIN: "http://localhost:3000" }],
    [{ NODE_ENV: "development", APP_ORIGIN: "https://read.example" }],
    [{ APP_ORIGIN: "https://read.example" }],
  ])("defaults to the test provider, unmarked, off a public origin: %j", (source) => {
    expect(parseEnv(source)).toMatchObject({ PAYMENT_PROVIDER: "test", simulatedPayments: false });
  });
});

describe("logLevelFrom", () => {
  it("reads LOG_LEVEL as the schema does, and names it when it is wrong", () => {
    expect(logLevelFrom({})).toBe("info");
    expect(logLevelFrom({ LOG_LEVEL: "" })).toBe("info");
    expect(logLevelFrom({ LOG_LEVEL: "warn" })).toBe("warn");
    expect(() => logLevelFrom({ LOG_LEVEL: "loud" })).toThrowError(/LOG_LEVEL:/);
  });
});

describe("S3 media storage settings", () => {
  const complete = {
    S3_BUCKET: "site-media",
    S3_REGION: "auto",
    S3_ACCESS_KEY_ID: "key",
    S3_SECRET_ACCESS_KEY: "secret",
  };

  it("keeps media under DATA_DIR when no S3_ variable is set", () => {
    expect(parseEnv({}).s3).toBeUndefined();
  });

  it("takes a complete set, with an endpoint and path-style addressing for an S3-compatible server", () => {
    expect(parseEnv(complete).s3).toEqual({
      bucket: "site-media",
      region: "auto",
      accessKeyId: "key",
      secretAccessKey: "secret",
      endpoint: undefined,
      forcePathStyle: undefined,
    });
    const env = parseEnv({ ...complete, S3_ENDPOINT: "http://127.0.0.1:9000", S3_FORCE_PATH_STYLE: "true" });
    expect(env.s3).toMatchObject({ endpoint: "http://127.0.0.1:9000", forcePathStyle: true });
    expect(parseEnv({ ...complete, S3_FORCE_PATH_STYLE: "0" }).s3?.forcePathStyle).toBe(false);
  });

  it("is all or nothing: a partial set names every missing variable and what was set", () => {
    expect(() => parseEnv({ S3_BUCKET: "site-media" })).toThrowError(
      /S3_REGION: is required when S3 storage is configured \(S3_BUCKET set\)[\s\S]*S3_ACCESS_KEY_ID: is required[\s\S]*S3_SECRET_ACCESS_KEY: is required/,
    );
    expect(() => parseEnv({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrowError(/S3_BUCKET: is required/);
    const { S3_SECRET_ACCESS_KEY: _, ...withoutSecret } = complete;
    expect(() => parseEnv(withoutSecret)).toThrowError(/S3_SECRET_ACCESS_KEY: is required/);
  });

  it.each([
    [{ S3_ENDPOINT: "ftp://storage" }, "S3_ENDPOINT"],
    [{ S3_FORCE_PATH_STYLE: "yes" }, "S3_FORCE_PATH_STYLE"],
    [{ S3_BUCKET: "x" }, "S3_BUCKET"],
  ])("refuses %j naming the variable", (source, name) => {
    expect(() => parseEnv({ ...complete, ...source })).toThrowError(new RegExp(`${name}:`));
  });
});

describe("the test clock (TEST_CLOCK)", () => {
  it("is off unless set, and takes true or false", () => {
    expect(parseEnv({}).TEST_CLOCK).toBe(false);
    expect(parseEnv({ TEST_CLOCK: "true" }).TEST_CLOCK).toBe(true);
    expect(parseEnv({ TEST_CLOCK: "0" }).TEST_CLOCK).toBe(false);
    expect(() => parseEnv({ TEST_CLOCK: "yes" })).toThrowError(/TEST_CLOCK: must be true or false/);
  });

  it("is refused on a public site, even with a payment provider chosen", () => {
    const site = { NODE_ENV: "production", APP_ORIGIN: "https://read.example", PAYMENT_PROVIDER: "stripe" };
    expect(() => parseEnv({ ...site, PAYMENT_PROVIDER: "test", TEST_CLOCK: "true" })).toThrowError(
      /TEST_CLOCK: is refused on a public site/,
    );
    expect(parseEnv({ NODE_ENV: "production", TEST_CLOCK: "true" }).TEST_CLOCK).toBe(true);
  });
});
