import path from "node:path";
import { z } from "zod";
import type { S3Settings } from "./storage.server";

function knownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const logLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");

/** S3 media storage is all or nothing: any of these set asks for the required ones. */
const s3Variables = [
  "S3_BUCKET",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_ENDPOINT",
  "S3_FORCE_PATH_STYLE",
] as const;
const s3Required = ["S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

/**
 * The process configuration, read once from the environment and validated at start.
 * A bad value stops start-up with a message that names the variable.
 */
const trueOrFalse = z
  .enum(["true", "false", "1", "0"], "must be true or false")
  .transform((value) => value === "true" || value === "1");

/** A Discord snowflake: a guild's, a role's or a user's id. */
const discordId = z.string().regex(/^\d{1,20}$/, "must be a Discord id (digits only)");

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    APP_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
    LOG_LEVEL: logLevel,
    CONTENT_DIR: z.string().min(1).default("./content"),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    MAIL_FROM: z.string().min(3).default("Crimson Covenant <no-reply@localhost>"),
    DISCORD_CLIENT_ID: z.string().optional(),
    DISCORD_CLIENT_SECRET: z.string().optional(),
    DISCORD_AUTHORIZE_URL: z.url().default("https://discord.com/oauth2/authorize"),
    DISCORD_TOKEN_URL: z.url().default("https://discord.com/api/oauth2/token"),
    DISCORD_USERINFO_URL: z.url().default("https://discord.com/api/users/@me"),
    /**
     * The Discord role perk (ADR 84): the bot's token and the guild it manages; one role per tier (a tier
     * without one gets none). Without the token and the guild, nothing about Discord shows but the invite.
     */
    DISCORD_BOT_TOKEN: z.string().min(20, "must be a Discord bot token").max(200).optional(),
    DISCORD_GUILD_ID: discordId.optional(),
    DISCORD_ROLE_OBSERVER: discordId.optional(),
    DISCORD_ROLE_ANALYST: discordId.optional(),
    DISCORD_ROLE_FIRST_HUMAN: discordId.optional(),
    /** Discord's REST API (tests point it at a stand-in). */
    DISCORD_API_URL: z.url({ protocol: /^https?$/ }).default("https://discord.com/api/v10"),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_AUTHORIZE_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
    GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
    GOOGLE_USERINFO_URL: z.url().default("https://openidconnect.googleapis.com/v1/userinfo"),
    /**
     * No default: chosen by parseEnv, which refuses to guess in production (an https APP_ORIGIN with
     * NODE_ENV=production), where the test provider would let anyone approve their own checkout.
     */
    PAYMENT_PROVIDER: z.enum(["test", "stripe"]).optional(),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_/, "must be a Stripe secret key (sk_test_…, sk_live_…)")
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, "must be a Stripe webhook secret (whsec_…)")
      .optional(),
    /** Only for tests: where the Stripe client sends its requests instead of https://api.stripe.com. */
    STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
    /** Signs the test provider's confirmations; a random one per process when unset. */
    TEST_PAYMENT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    CHECKOUT_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(30),
    /** How long an order holds its units before an unpaid checkout gives them back (ADR 25). */
    ORDER_RESERVATION_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
    RESET_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
    /** Where product inquiries go (ADR 26); unset, the contact address of the site settings (content/site.md). */
    AUTHOR_EMAIL: z.email("must be an e-mail address").max(254).optional(),
    /** Inquiries one IP may send per hour (ADR 26); each sender's address has its own, fixed limit. */
    INQUIRY_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(5),
    /** Release e-mails one app instance sends a minute at most (ADR 45); the rest wait for the next tick. */
    RELEASE_MAILS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
    /** Memory for whole pages kept for many readers (server/page-cache.ts). */
    PAGE_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(64),
    /**
     * Renders and writes (anything a kept page does not answer) done at once; the rest wait their turn, fair
     * per address and reader (ADR 68). 0, the default for now, turns the bound off; 1 is the measured setting on
     * PGlite, whose answers run in the requesting task: two renders there run interleaved as one stretch of
     * work (measured: worse for both).
     */
    RENDERS_IN_FLIGHT: z.coerce.number().int().min(0).max(256).default(0),
    /** Requests waiting for a render's turn, in all; past it an immediate 503 with Retry-After (ADR 68). */
    RENDERS_QUEUED: z.coerce.number().int().min(1).max(10_000).default(256),
    /**
     * The most signed-in readers' progress writes one batch writes together (ADR 67); 1 writes each alone, as
     * before batching (the bench's comparison).
     */
    PROGRESS_BATCH_MAX: z.coerce.number().int().min(1).max(1000).default(500),
    /** The site's time zone: a monthly fundraiser goal counts the calendar month there (ADR 28). */
    SITE_TIME_ZONE: z
      .string()
      .refine(knownTimeZone, "must be an IANA time zone name (UTC, Europe/Paris, America/New_York, …)")
      .default("UTC"),
    /**
     * Media (uploads and imported art) in an S3-compatible bucket instead of DATA_DIR/media (ADR 33): all of
     * bucket, region and keys, or none. S3_ENDPOINT names an S3-compatible server (AWS when unset).
     */
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_FORCE_PATH_STYLE: trueOrFalse.optional(),
    /**
     * Only for tests: the author's admin gets /admin/clock, which moves the site's release time (ADR 39).
     * Refused on a public site (NODE_ENV=production with an https APP_ORIGIN).
     */
    TEST_CLOCK: trueOrFalse.default(false),
  })
  .superRefine((env, context) => {
    const s3Named = s3Variables.filter((name) => env[name] !== undefined);
    if (s3Named.length > 0) {
      for (const name of s3Required) {
        if (env[name] === undefined)
          context.addIssue({
            code: "custom",
            path: [name],
            message: `is required when S3 storage is configured (${s3Named.join(", ")} set): set ${s3Required.join(", ")}, or none of the S3_ variables to keep media under DATA_DIR`,
          });
      }
    }
    if (env.PAYMENT_PROVIDER !== "stripe") return;
    for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
      if (!env[name])
        context.addIssue({
          code: "custom",
          path: [name],
          message: "is required when PAYMENT_PROVIDER=stripe",
        });
    }
  });

export type Env = Omit<z.infer<typeof schema>, "PAYMENT_PROVIDER"> & {
  PAYMENT_PROVIDER: "test" | "stripe";
  dataDir: string;
  origin: string;
  /** NODE_ENV=production serving an https origin: the site is public, so nothing is assumed for it. */
  publicProduction: boolean;
  /** The test payment provider serves a public site: every page says payments are simulated. */
  simulatedPayments: boolean;
  /** The S3 bucket media go to (ADR 33); undefined keeps them under DATA_DIR/media. */
  s3: S3Settings | undefined;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const blanksRemoved = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = schema.safeParse(blanksRemoved);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const origin = (env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  // `npm start` on http://localhost is NODE_ENV=production too; only a public (https) origin must choose.
  const publicProduction = env.NODE_ENV === "production" && origin.startsWith("https:");
  if (publicProduction && env.TEST_CLOCK) {
    throw new ConfigError(
      "Invalid configuration:\n  TEST_CLOCK: is refused on a public site (NODE_ENV=production with an https APP_ORIGIN)",
    );
  }
  if (publicProduction && !env.PAYMENT_PROVIDER) {
    throw new ConfigError(
      "Invalid configuration:\n  PAYMENT_PROVIDER: is required in production (NODE_ENV=production with an https APP_ORIGIN): set stripe, or test to run on simulated payments",
    );
  }
  const provider = env.PAYMENT_PROVIDER ?? "test";
  return {
    ...env,
    PAYMENT_PROVIDER: provider,
    dataDir: path.resolve(env.DATA_DIR),
    origin,
    publicProduction,
    simulatedPayments: publicProduction && provider === "test",
    s3:
      env.S3_BUCKET && env.S3_REGION && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? {
            bucket: env.S3_BUCKET,
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            endpoint: env.S3_ENDPOINT,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
          }
        : undefined,
  };
}

/**
 * LOG_LEVEL alone, for the logger, which is made when its module loads: before a test (or anything) has
 * set the rest of the environment that getEnv() reads once. Validated by the same schema as the rest.
 */
export function logLevelFrom(source: NodeJS.ProcessEnv): z.infer<typeof logLevel> {
  const result = logLevel.safeParse(source.LOG_LEVEL || undefined);
  if (!result.success)
    throw new ConfigError(`Invalid configuration:\n  LOG_LEVEL: ${result.error.issues[0]?.message}`);
  return result.data;
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
