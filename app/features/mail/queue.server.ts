import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Database, db } from "#db/client.server";
import { users } from "#db/schema";
import { describeError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { getMailer, type Mailer } from "./mailer.server";

/**
 * A table of queued e-mails (release e-mails, Q&A e-mails: ADR 45): one row an e-mail, claimed by a worker
 * under a lease, sent once, retried after a failure with growing waits, kept as failed past the last.
 */
export type MailQueue = PgTable & {
  id: PgColumn;
  status: PgColumn;
  attempts: PgColumn;
  nextAttemptAt: PgColumn;
  lockedUntil: PgColumn;
  sentAt: PgColumn;
  lastError: PgColumn;
};

/** How long a claimed e-mail is held by its worker: far longer than sending a tick's batch takes. */
export const LEASE_MS = 5 * 60_000;
/** Waits after each failed attempt; past the last, the e-mail is kept as failed. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * Claims up to `limit` due e-mails of a queue in one statement: rows another worker holds (locked now, or
 * leased) are skipped, not waited for. The claim sets a lease and counts the attempt, and commits at once: no
 * transaction stays open while mail is sent. Returns the `fields` asked for of each claimed row.
 */
export function claimDue<Fields extends Record<string, PgColumn>>(
  queue: MailQueue,
  fields: Fields,
  { now, limit, database }: { now: Date; limit: number; database: Database },
) {
  const due = database
    .select({ id: queue.id })
    .from(queue)
    .where(
      and(
        eq(queue.status, "queued"),
        lte(queue.nextAttemptAt, now),
        or(isNull(queue.lockedUntil), lte(queue.lockedUntil, now)),
      ),
    )
    .orderBy(asc(queue.nextAttemptAt), asc(queue.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  return database
    .update(queue)
    .set(queueSet({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${queue.attempts} + 1` }))
    .where(inArray(queue.id, due))
    .returning(fields);
}

/** What an attempt ended in: sent, cancelled (the reader no longer wants it), or failed with an error code. */
export type Attempt = { outcome: "sent" } | { outcome: "cancelled" } | { outcome: "failed"; code: string };

/**
 * Writes what an attempt ended in and frees the lease. A failure is tried again after the wait its attempt
 * number names, or kept as failed past MAX_ATTEMPTS. Returns whether it was retried and after how long.
 */
export async function finishAttempt(
  queue: MailQueue,
  mail: { id: number; attempts: number },
  attempt: Attempt,
  { now, database }: { now: Date; database: Database },
): Promise<{ retryInMs?: number }> {
  let values: Record<string, unknown>;
  let retryInMs: number | undefined;
  if (attempt.outcome === "sent") values = { status: "sent", sentAt: now, lastError: null };
  else if (attempt.outcome === "cancelled") values = { status: "cancelled" };
  else if (mail.attempts >= MAX_ATTEMPTS) values = { status: "failed", lastError: attempt.code };
  else {
    retryInMs = RETRY_DELAYS_MS[mail.attempts - 1] ?? 0;
    values = { lastError: attempt.code, nextAttemptAt: new Date(now.getTime() + retryInMs) };
  }
  await database
    .update(queue)
    .set(queueSet({ lockedUntil: null, ...values }))
    .where(eq(queue.id, mail.id));
  return retryInMs === undefined ? {} : { retryInMs };
}

/**
 * The readers of claimed e-mails, by id: their address, name and language, whether they still want this kind
 * (`optedIn`, the column of their choice) and whether they are suspended, which cancels an e-mail.
 */
export async function mailReaders(database: Database, ids: number[], optedIn: PgColumn) {
  const rows = await database
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      language: users.language,
      optedIn: sql<boolean>`${optedIn}`,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((reader) => [reader.id, reader]));
}

/**
 * Sends one claimed e-mail and writes what came of it: sent, or failed (retried later, or kept as failed past
 * the last attempt), logged under `event` with its code (never the message, which may hold an address).
 */
export async function sendClaimed(
  queue: MailQueue,
  mail: { id: number; attempts: number },
  send: () => Promise<void>,
  { now, database, event }: { now: Date; database: Database; event: string },
): Promise<"sent" | "retried" | "failed"> {
  try {
    await send();
  } catch (error) {
    const { code } = describeError(error);
    const { retryInMs } = await finishAttempt(queue, mail, { outcome: "failed", code }, { now, database });
    const line = { event, mailId: mail.id, attempts: mail.attempts, code };
    if (retryInMs === undefined) {
      logger.error(line, "e-mail failed for good (kept as failed)");
      return "failed";
    }
    logger.warn({ ...line, retryInMs }, "e-mail failed, trying again later");
    return "retried";
  }
  await finishAttempt(queue, mail, { outcome: "sent" }, { now, database });
  return "sent";
}

/** What a run of one queue did with the mails it claimed. */
export type QueueOutcome = { sent: number; retried: number; failed: number; cancelled: number };

/** The options every queue's sender takes: its clock, how many to claim, its mailer and database. */
export type SenderOptions = { now?: Date; limit?: number; mailer?: Mailer; database?: Database };

/** A sender's options with their defaults: now, 20 at a time, the configured mailer, the database. */
export function senderOptions(options: SenderOptions = {}): Required<SenderOptions> {
  return {
    now: options.now ?? new Date(),
    limit: options.limit ?? 20,
    mailer: options.mailer ?? getMailer(),
    database: options.database ?? db(),
  };
}

/**
 * Sends each claimed mail of `queue` in turn: `prepare` gives the sending of one (made after the claim, with
 * what the sender read for all of them), or undefined when there is nothing to send any more (its reader
 * turned the choice off, was suspended or is gone): then it is cancelled. Failures are `sendClaimed`'s.
 */
export async function sendEach<Mail extends { id: number; attempts: number }>(
  queue: MailQueue,
  claimed: Mail[],
  prepare: (mail: Mail) => (() => Promise<void>) | undefined,
  { now, database, event }: { now: Date; database: Database; event: string },
): Promise<QueueOutcome> {
  const outcome: QueueOutcome = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
  for (const mail of claimed) {
    const send = prepare(mail);
    if (!send) {
      await finishAttempt(queue, mail, { outcome: "cancelled" }, { now, database });
      outcome.cancelled++;
      continue;
    }
    outcome[await sendClaimed(queue, mail, send, { now, database, event })]++;
  }
  return outcome;
}

/**
 * An update's values by the columns every queue table has. Drizzle types `set` by one concrete table; the
 * names here are the `MailQueue` columns, so the cast only widens what the type cannot see.
 */
const queueSet = (values: Record<string, unknown>) => values as never;
