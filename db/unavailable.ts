/**
 * Whether an error means the database could not be reached or dropped the connection, as opposed to a
 * query the database refused. Such a request can succeed a moment later, so it is answered with 503 and
 * Retry-After rather than 500 (ADR 14). Drizzle wraps driver errors (DrizzleQueryError), so the causes
 * are followed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.test(code) || NETWORK_CODES.has(code)))
      return true;
    if (typeof message === "string" && DRIVER_MESSAGES.some((text) => message.startsWith(text))) return true;
    current = cause;
  }
  return false;
}

/**
 * Whether an error is the database ending a transaction because of another one: a deadlock (40P01) or a
 * serialization failure (40001). Nothing of the transaction was written, and the same request can succeed
 * a moment later (the other transaction, a restore say, has finished), so it too is answered with 503 and
 * Retry-After rather than 500.
 */
export function isTransactionConflict(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === "40P01" || code === "40001") return true;
    current = cause;
  }
  return false;
}

/**
 * 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up or in recovery), and class 08, connection exceptions.
 */
const UNAVAILABLE_SQLSTATES = /^(57P0[123]|08[0-9A-Z]{3})$/;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** node-postgres and pg-pool raise these as plain Errors without a code. */
const DRIVER_MESSAGES = [
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "timeout exceeded when trying to connect",
];

/** Seconds a client is asked to wait before trying again while the database is unavailable. */
export const RETRY_AFTER_SECONDS = 2;
