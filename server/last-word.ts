import http from "node:http";
import type express from "express";
import { isDatabaseUnavailable, isTransactionConflict, RETRY_AFTER_SECONDS } from "#db/unavailable";
import { describeError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/**
 * Express's last word on an error: one JSON line with a code (never the error's message, which can hold a
 * query's parameters, nor a stack), and a short answer. A 4xx an error asks for (a missing /media file) is
 * the client's, logged at debug. The database out of reach, or a deadlock or serialization failure that
 * rolled the work back, is a 503 with Retry-After here too (as loaders' and actions' are:
 * server/database-outage.ts), logged as a warning, never a 500.
 */
export function lastWordOnError(
  error: unknown,
  req: express.Request,
  res: express.Response,
  _next: express.NextFunction,
): void {
  const retry = isDatabaseUnavailable(error) || isTransactionConflict(error);
  const { code, status } = retry ? { code: "database-unavailable", status: 503 } : describeError(error);
  const line = { requestId: res.locals.requestId, code, status, method: req.method };
  if (retry) logger.warn(line, "database unavailable");
  else if (status >= 500) logger.error(line, "request failed");
  else logger.debug(line, "request refused");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (retry) res.set("Retry-After", String(RETRY_AFTER_SECONDS));
  res.status(status).type("text/plain").set("Cache-Control", "no-store").end(http.STATUS_CODES[status]);
}
