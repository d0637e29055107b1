import pino from "pino";
import { errorCode } from "./db-errors";
import { logLevelFrom } from "./env.server";
import { REDACTED, redactedLogPaths } from "./redact";

/**
 * JSON-lines logger. Never log passwords, tokens or session ids; the fields that would carry one are
 * censored anyway (app/lib/redact.ts), and the access log's URL is redacted where it is written.
 */
export const logger = pino({
  level: logLevelFrom(process.env),
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  redact: { paths: redactedLogPaths, censor: REDACTED },
  serializers: { err: safeError },
});

/**
 * An error as a log line may hold it: its class and code, and the stack's frames without its message line.
 * A database error's message (drizzle's "Failed query: … params: …") carries the request's values, a
 * password hash or an e-mail among them, so no message is written (ADR 15).
 */
export function safeError(error: unknown): { type: string; code: string; frames?: string } {
  const type = error instanceof Error ? error.constructor.name : typeof error;
  const stack = error instanceof Error ? error.stack : undefined;
  const frames = stack
    ?.split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .slice(0, 8)
    .join("\n");
  return { type, code: errorCode(error), ...(frames ? { frames } : {}) };
}
