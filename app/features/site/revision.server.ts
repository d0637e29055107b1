import { and, asc, eq, gt, lte } from "drizzle-orm";
import { db } from "#db/client.server";
import { databaseEpochValue } from "#db/epoch.server";
import { contentChanges, contentRevision } from "#db/schema";
import { logger } from "~/lib/logger.server";

/**
 * The content revision: a counter that triggers move on every write to the published content (migrations
 * 0003, 0027). A server polls it once a second, so each app instance drops what it cached from the content
 * within about a second of a change, whichever process or instance made it. Each move leaves a row saying
 * what moved it (`content_changes`): one chapter's text alone, or anything else (ADR 54). An instance keeps
 * two positions: `broad`, the last change that was not one chapter's text, which retires everything; and per
 * chapter, its last text change since, which retires that chapter's pages and the pages listing chapters.
 * Without the poll (tests, scripts) nothing is memoised: every read goes to the database.
 *
 * A restore puts the counters and `content_changes` back to the backup's, possibly to values this instance
 * has already given out for other content. So the revisions given out are the database's plus a `base`, and
 * when the database epoch moved (db/epoch.server.ts) or a counter went back, the base is raised so that every
 * revision given out after is above every one given out before: nothing kept under an earlier one is taken
 * for the restored data's, and the restored `content_changes` are not read as changes (ADR 61).
 */
const state: {
  /** The revision last read: every change. */
  revision?: number;
  /** The revision of the last change other than one chapter's text. */
  broad?: number;
  /** Chapter number → the revision of its last text change after `broad`. */
  texts: Map<number, number>;
  /** Language → the revision of its last translation update after `broad` (ADR 86). */
  languages: Map<string, number>;
  comments?: number;
  /** What the revisions given out add to the database's counters; raised when the data is replaced. */
  base: { revision: number; comments: number };
  /** The data last read (its epoch and counters): kept through a failed read, to tell a restore from an outage. */
  source?: Position;
  /** Set while a follower reads the revision (its own timer, or the server's follower of both streams). */
  following: boolean;
  timer?: NodeJS.Timeout;
  /** The read in progress: reads run one at a time, each from where the last ended. */
  reading: Promise<void>;
} = {
  texts: new Map(),
  languages: new Map(),
  base: { revision: 0, comments: 0 },
  following: false,
  reading: Promise.resolve(),
};

type Position = { epoch: string; revision: number; comments: number };

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

/**
 * The revision last read (every change), or undefined when no poll runs or the database does not answer. With
 * a language, every change but the updates of other languages' translations (ADR 86).
 */
export function currentRevision(language?: string): number | undefined {
  if (language === undefined || state.broad === undefined) return state.revision;
  return Math.max(state.broad, ...state.texts.values(), languageRevision(language));
}

/**
 * The revision of the last change other than one chapter's text: what a page showing no chapter text is kept by.
 * With a language, also its translations' updates.
 */
export function broadRevision(language?: string): number | undefined {
  return state.broad === undefined ? undefined : Math.max(state.broad, languageRevision(language));
}

/** The revision of the last update of a translation in `language` after the last broad change (0: none). */
function languageRevision(language: string | undefined): number {
  return language === undefined ? 0 : (state.languages.get(language) ?? 0);
}

/**
 * What a page showing one chapter's text (and no other's) is kept by: moved by that chapter's text changes and
 * by every broad change, by no other chapter's edit; with a language, by its translations' updates too.
 */
export function chapterTextRevision(number: number, language?: string): number | undefined {
  return state.broad === undefined
    ? undefined
    : Math.max(state.broad, state.texts.get(number) ?? 0, languageRevision(language));
}

/** The comments' counter last read, or undefined when no poll runs or the database does not answer. */
export function currentComments(): number | undefined {
  return state.comments;
}

/** The chapters whose text changed after `revision` (and after the last broad change). */
export function chapterTextsChangedSince(revision: number): number[] {
  return [...state.texts].filter(([, changed]) => changed > revision).map(([number]) => number);
}

function forget() {
  state.revision = undefined;
  state.broad = undefined;
  state.comments = undefined;
  state.texts = new Map();
  state.languages = new Map();
}

/** Both counters and the database epoch, in one statement. */
async function readPosition(): Promise<Position> {
  const [row] = await db()
    .select({
      epoch: databaseEpochValue,
      revision: contentRevision.revision,
      comments: contentRevision.comments,
    })
    .from(contentRevision)
    .where(eq(contentRevision.id, 1));
  return { epoch: row?.epoch ?? "", revision: row?.revision ?? 0, comments: row?.comments ?? 0 };
}

/**
 * Whether `read` is the data `source` was read from, moved on: the same epoch and no counter gone back. Not
 * so after a restore, whatever the restored counters are.
 */
function sameData(source: Position, read: Position): boolean {
  return read.epoch === source.epoch && read.revision >= source.revision && read.comments >= source.comments;
}

/** Reads both counters and, when the content's moved, what moved it. */
async function readOnce(): Promise<void> {
  const read = await readPosition();
  const source = state.source;
  const same = source !== undefined && sameData(source, read);
  if (!same && source !== undefined) {
    // Another copy of the data: what is given out next goes on above the last given out (source + base).
    state.base = {
      revision: source.revision + state.base.revision + 1 - read.revision,
      comments: source.comments + state.base.comments + 1 - read.comments,
    };
  }
  const revision = read.revision + state.base.revision;
  const known = same ? state.revision : undefined;
  if (!same || known === undefined || state.broad === undefined) {
    // The first read, after a lost database, or another copy of the data (a restore).
    state.broad = revision;
    state.texts = new Map();
    state.languages = new Map();
  } else if (revision > known) {
    const changes = await db()
      .select()
      .from(contentChanges)
      .where(and(gt(contentChanges.revision, source.revision), lte(contentChanges.revision, read.revision)))
      .orderBy(asc(contentChanges.revision));
    // A move without its row (pruned, a restore's, one made by hand) may have changed anything.
    const narrow =
      changes.length === revision - known &&
      changes.every((change) => change.chapterNumber !== null || change.language !== null);
    if (narrow) {
      for (const change of changes) {
        const moved = change.revision + state.base.revision;
        if (change.chapterNumber !== null) state.texts.set(change.chapterNumber, moved);
        // A translation's update retires its language's pages alone (ADR 86).
        else if (change.language !== null) state.languages.set(change.language, moved);
      }
    } else {
      state.broad = revision;
      state.texts = new Map();
      state.languages = new Map();
    }
  }
  state.revision = revision;
  state.comments = read.comments + state.base.comments;
  state.source = read;
}

/** Queues a read after the one in progress. A failed read forgets everything, so nothing kept is trusted. */
function read(): Promise<void> {
  state.reading = state.reading.then(readOnce).catch((error: unknown) => {
    forget();
    throw error;
  });
  const done = state.reading;
  state.reading = done.catch(() => {});
  return done;
}

/**
 * Follows the revision without a timer of its own, after reading it once: the caller reads it on its own tick
 * (`pollContentRevision`), as the server's one follower of both freshness streams does (server/freshness.ts).
 */
export async function followContentRevision(): Promise<void> {
  await read();
  state.following = true;
}

/** One read of a follower's tick; a failure is logged and forgets the revision, so nothing kept is trusted. */
export async function pollContentRevision(): Promise<void> {
  await read().catch((error: unknown) => {
    // A lost database: the revision is forgotten, so nothing cached is trusted until it answers again.
    logger.warn({ err: error }, "content revision poll failed");
  });
}

/** Follows the revision on a timer of its own, every `everyMs` (tests, and a script needing this alone). */
export async function startRevisionPoll(everyMs = 1000): Promise<void> {
  await followContentRevision();
  let busy = false;
  state.timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void pollContentRevision().finally(() => {
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
  if (!state.following) return;
  await read();
}

export function stopRevisionPoll(): void {
  clearInterval(state.timer);
  state.timer = undefined;
  state.following = false;
  forget();
  state.source = undefined;
  state.base = { revision: 0, comments: 0 };
}

/**
 * `load()`'s result, kept until a change other than one chapter's text (the broad revision moves): nothing
 * memoised this way may hold a chapter's text, word count or edit time (those are `memoWithChapterTexts`'s).
 * With `alsoUntil`, also until the generation it gives moves (undefined: not known, nothing kept), for a value
 * that moves with readers' records too (money received: ADR 71). Concurrent callers share one load. Without a
 * poll running, every call loads afresh.
 */
export function memoByRevision<T>(
  load: () => Promise<T>,
  alsoUntil?: () => number | string | undefined,
): () => Promise<T> {
  let memo: { revision: number; generation: number | string | undefined; value: Promise<T> } | undefined;
  return () => {
    const revision = state.broad;
    const generation = alsoUntil?.();
    if (revision === undefined || (alsoUntil && generation === undefined)) return load();
    if (memo?.revision !== revision || memo.generation !== generation) {
      // Adopted once: a Drizzle query is a thenable that runs again at every `then`, so kept as it is, it
      // would be read again by every caller.
      const value = Promise.resolve(load());
      memo = { revision, generation, value };
      // A failed load is not kept.
      value.catch(() => {
        if (memo?.value === value) memo = undefined;
      });
    }
    return memo.value;
  };
}

/**
 * As `memoByRevision`, one value per language (a translation language's texts: ADR 86), each kept until a
 * broad change or an update of that language's translations (`broadRevision(language)`), so an edit in one
 * language re-reads that language alone. The caller bounds the languages (the site's four).
 */
export function memoByLanguage<L extends string, T>(
  load: (language: L) => Promise<T>,
): (language: L) => Promise<T> {
  const memos = new Map<L, { revision: number; value: Promise<T> }>();
  return (language) => {
    const revision = broadRevision(language);
    if (revision === undefined) return load(language);
    const kept = memos.get(language);
    if (kept?.revision === revision) return kept.value;
    const value = Promise.resolve(load(language));
    memos.set(language, { revision, value });
    value.catch(() => {
      if (memos.get(language)?.value === value) memos.delete(language);
    });
    return value;
  };
}

/**
 * As `memoByRevision`, for a value that holds chapters' text facts: loaded whole after a broad change; after
 * a chapter's text changes, `patch` is given the value and the changed chapters' numbers and returns the value
 * with those re-read (a chapter edit re-reads one row, not the serial).
 */
export function memoWithChapterTexts<T>(
  load: () => Promise<T>,
  patch: (value: T, numbers: number[]) => Promise<T>,
): KeptValue<T> {
  type Memo = { broad: number; asOf: number; value: Promise<T>; settled?: { value: T } };
  let memo: Memo | undefined;
  const keep = (next: Memo) => {
    memo = next;
    next.value.then(
      (value) => {
        next.settled = { value };
      },
      () => {
        if (memo === next) memo = undefined;
      },
    );
    return next.value;
  };
  const current = () => {
    const { broad, revision } = state;
    if (broad === undefined || revision === undefined) return load();
    if (memo?.broad !== broad) return keep({ broad, asOf: revision, value: load() });
    if (memo.asOf < revision) {
      const changed = chapterTextsChangedSince(memo.asOf);
      const base = memo.value;
      return keep({
        broad,
        asOf: revision,
        value: changed.length === 0 ? base : base.then((value) => patch(value, changed)),
      });
    }
    return memo.value;
  };
  const peek = () => {
    const { broad, revision } = state;
    return memo && memo.broad === broad && memo.asOf === revision ? memo.settled?.value : undefined;
  };
  return Object.assign(current, { peek });
}

/**
 * A value kept by the revisions: called, it is the value now (loaded or patched when a change moved it); `peek`
 * gives it without a promise when it is loaded and current, else undefined (the page cache's hit path).
 */
export type KeptValue<T> = (() => Promise<T>) & { peek: () => T | undefined };
