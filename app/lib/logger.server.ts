import pino from "pino";

/** JSON-lines logger. Never log passwords, tokens or session ids. */
export const logger = pino({
  level: process.env.LOG_LEVEL || "info",
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});
