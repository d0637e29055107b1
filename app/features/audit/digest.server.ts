import { createHash } from "node:crypto";

/**
 * A digest of a row as a form opened it (SHA-256 of its JSON, base64url: `digestField` checks its shape).
 * Rows without a version column are saved only from the digest of what is there now (ADR 38).
 */
export function digestOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("base64url");
}
