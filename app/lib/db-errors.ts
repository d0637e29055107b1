/** The name of the unique constraint a database error violated (SQLSTATE 23505), on either driver. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  for (
    let current = error as
      | { code?: string; constraint?: string; cause?: unknown; message?: string }
      | undefined;
    current;
  ) {
    if (current.code === "23505") {
      return current.constraint ?? /constraint "([^"]+)"/.exec(current.message ?? "")?.[1] ?? "unknown";
    }
    current = current.cause as typeof current;
  }
  return undefined;
}
