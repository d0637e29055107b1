import pino from "pino";
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
});
