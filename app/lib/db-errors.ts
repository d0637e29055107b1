/** The name of the constraint a database error with SQLSTATE `code` violated, on either driver. */
function violatedConstraint(error: unknown, code: string): string | undefined {
  for (
    let current = error as
      | { code?: string; constraint?: string; cause?: unknown; message?: string }
      | undefined;
    current;
  ) {
    if (current.code === code) {
      return current.constraint ?? /constraint "([^"]+)"/.exec(current.message ?? "")?.[1] ?? "unknown";
    }
    current = current.cause as typeof current;
  }
  return undefined;
}

/** The name of the unique constraint a database error violated (SQLSTATE 23505), on either driver. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  return violatedConstraint(error, "23505");
}

/** The name of the foreign key a database error violated (SQLSTATE 23503): a row it names is gone. */
export function violatedForeignKey(error: unknown): string | undefined {
  return violatedConstraint(error, "23503");
}

/**
 * What an error log line may say about an error: a code, never its message (a database error's message and
 * its query carry the request's values: ADR 15). The SQLSTATE of a database error on either driver (drizzle
 * wraps the driver's error as `cause`), else a system code (`ECONNRESET`), else the error's class name.
 */
export function errorCode(error: unknown): string {
  let fallback: string | undefined;
  for (let current = error as { code?: unknown; name?: unknown; cause?: unknown } | undefined; current; ) {
    if (typeof current !== "object") break;
    if (typeof current.code === "string" && /^[\w-]{1,40}$/.test(current.code)) return current.code;
    if (fallback === undefined && typeof current.name === "string") fallback = current.name.slice(0, 40);
    current = current.cause as typeof current;
  }
  return fallback ?? typeof error;
}

/**
 * SQLSTATEs of text the database cannot store: 22021 (a NUL, or bytes invalid in UTF-8) and 22P05 (a `\u0000`
 * in jsonb). The edge refuses such text (server/text-input.ts); one that got past it is still the client's.
 */
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

/** The database refused the text it was given (a NUL byte): the request's fault, answered 400. */
export function isUnstorableTextError(error: unknown): boolean {
  return UNSTORABLE_TEXT.has(errorCode(error));
}

/** An HTTP status an error asks for (Express's static files, body readers, 400 for unstorable text), else 500. */
export function errorStatus(error: unknown): number {
  if (isUnstorableTextError(error)) return 400;
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const asked = typeof status === "number" ? status : statusCode;
  return typeof asked === "number" && Number.isInteger(asked) && asked >= 400 && asked <= 599 ? asked : 500;
}
