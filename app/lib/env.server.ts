import path from "node:path";
import { z } from "zod";

/**
 * The process configuration, read once from the environment and validated at start.
 * A bad value stops start-up with a message that names the variable.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  APP_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CONTENT_DIR: z.string().min(1).default("./content"),
});

export type Env = z.infer<typeof schema> & { dataDir: string; origin: string };

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
  return {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    origin: (env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
  };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
