import fs from "node:fs";
import path from "node:path";
import { waitFor } from "./poll";

/**
 * E-mail in tests is read from a data directory's outbox (DATA_DIR/outbox, where the app writes .eml files
 * when no SMTP_URL is set), as an operator would read it.
 */

/** Undoes quoted-printable: soft line breaks, then =XX escapes. */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
}

export type MailQuery = {
  /** Only a message whose decoded text contains this. */
  containing?: string;
  /** The newest match instead of the oldest. */
  newest?: boolean;
  /** File names already read: skipped, and the match is added (for "the next e-mail to"). */
  seen?: Set<string>;
  timeout?: number;
};

/** The matching message to `to` now in the outbox, decoded, or undefined. */
export function findMail(dataDir: string, to: string, query: MailQuery = {}): string | undefined {
  const outbox = path.join(dataDir, "outbox");
  const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort() : [];
  if (query.newest) files.reverse();
  for (const file of files) {
    if (query.seen?.has(file)) continue;
    const text = decodeQuotedPrintable(fs.readFileSync(path.join(outbox, file), "utf8"));
    if (!text.includes(`To: ${to}`) || !text.includes(query.containing ?? "")) continue;
    query.seen?.add(file);
    return text;
  }
  return undefined;
}

/** Waits for the matching message to `to` (the app sends mail after it answers, ADR 16). */
export function waitForMail(dataDir: string, to: string, query: MailQuery = {}): Promise<string> {
  return waitFor(() => findMail(dataDir, to, query), {
    timeout: query.timeout ?? 15_000,
    what: `an e-mail to ${to}${query.containing ? ` containing ${query.containing}` : ""}`,
  });
}

/** Every message to `to` now in the outbox, oldest first, decoded. */
export function mailsTo(dataDir: string, to: string): string[] {
  const outbox = path.join(dataDir, "outbox");
  const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort() : [];
  return files
    .map((file) => decodeQuotedPrintable(fs.readFileSync(path.join(outbox, file), "utf8")))
    .filter((text) => text.includes(`To: ${to}`));
}
