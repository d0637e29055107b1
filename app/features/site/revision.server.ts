import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { contentRevision } from "#db/schema";
import { logger } from "~/lib/logger.server";

/**
 * The content revision: a counter that statement triggers move on every write to the published content
 * (migration 0003). A server polls it once a second, so each app instance drops what it cached from the
 * content within about a second of a change, whichever process or instance made it. Without the poll
 * (tests, scripts) nothing is memoised: `current()` is undefined and `memoByRevision` always recomputes.
 */
const state: { revision?: number; comments?: number; timer?: NodeJS.Timeout } = {};

/** Both counters: the content's, and the comments' (moved by comments and hearts, ADR 47). */
export async function readRevisions(): Promise<{ revision: number; comments: number }> {
  const [row] = await db()
    .select({ revision: contentRevision.revision, comments: contentRevision.comments })
    .from(contentRevision)
    .where(eq(contentRevision.id, 1));
  return { revision: row?.revision ?? 0, comments: row?.comments ?? 0 };
}

export async function readContentRevision(): Promise<number> {
  return (await readRevisions()).revision;
}

/** The revision last read, or undefined when no poll runs (every read then goes to the database). */
export function currentRevision(): number | undefined {
  return state.revision;
}

/**
 * What a page showing comments (or their counts) is kept by: the sum of both counters, which moves whenever
 * either does (each only grows). Undefined when no poll runs or the database does not answer.
 */
export function currentRevisionWithComments(): number | undefined {
  return state.revision === undefined || state.comments === undefined
    ? undefined
    : state.revision + state.comments;
}

function remember(revisions: { revision: number; comments: number } | undefined) {
  state.revision = revisions?.revision;
  state.comments = revisions?.comments;
}

export async function startRevisionPoll(everyMs = 1000): Promise<void> {
  remember(await readRevisions());
  let busy = false;
  state.timer = setInterval(() => {
    if (busy) return;
    busy = true;
    readRevisions()
      .then(remember)
      .catch((error: unknown) => {
        // A lost database: forget the revision, so nothing cached is trusted until it answers again.
        remember(undefined);
        logger.warn({ err: error }, "content revision poll failed");
      })
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  state.timer.unref();
}

/**
 * Reads the revision now, after a write this instance made (an admin save): its own next request then sees
 * the change at once rather than at the next poll. Other instances see it at their next poll.
 */
export async function refreshContentRevision(): Promise<void> {
  if (state.timer === undefined) return;
  remember(await readRevisions());
}

export function stopRevisionPoll(): void {
  clearInterval(state.timer);
  state.timer = undefined;
  remember(undefined);
}

/**
 * `load()`'s result, kept until the content revision moves. Concurrent callers share one load. Without a
 * poll running, every call loads afresh.
 */
export function memoByRevision<T>(load: () => Promise<T>): () => Promise<T> {
  let memo: { revision: number; value: Promise<T> } | undefined;
  return () => {
    const revision = state.revision;
    if (revision === undefined) return load();
    if (memo?.revision !== revision) {
      const value = load();
      memo = { revision, value };
      // A failed load is not kept.
      value.catch(() => {
        if (memo?.value === value) memo = undefined;
      });
    }
    return memo.value;
  };
}
