import { diffLines } from "diff";
import { and, count, desc, eq, like, max, or, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import {
  type Artwork,
  chapterRevisions,
  chapters,
  chapterUnlocks,
  editorDrafts,
  type RevisionNotes,
  users,
  volumes,
} from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { chapterText } from "~/features/content/markdown.server";
import { countWords } from "~/lib/words";

/** What the chapter form sends, checked (`chapterSchema`, app/features/chapters/chapter-form.ts). */
export type ChapterInput = {
  title: string;
  volume: number;
  bodyMd: string;
  /** The author's notes before and after the text (Markdown; null: none; left out: kept as they are). */
  noteBefore?: string | null;
  noteAfter?: string | null;
  status: "draft" | "published";
  releaseAt: Date;
  coinsRequired: number;
  tags: string[];
  /** Images before or after the text, with captions (an upload's address, or content's own). */
  artwork: Artwork[];
};

/** The chapter as the editor opens it: its fields and the version a save will name. */
export async function getChapterForEdit(id: number) {
  const [row] = await db()
    .select({
      id: chapters.id,
      number: chapters.number,
      title: chapters.title,
      volume: volumes.number,
      bodyMd: chapters.bodyMd,
      noteBefore: chapters.noteBefore,
      noteAfter: chapters.noteAfter,
      status: chapters.status,
      releaseAt: chapters.releaseAt,
      coinsRequired: chapters.coinsRequired,
      tags: chapters.tags,
      artwork: chapters.artwork,
      version: chapters.version,
      updatedAt: chapters.updatedAt,
    })
    .from(chapters)
    .innerJoin(volumes, eq(volumes.id, chapters.volumeId))
    .where(eq(chapters.id, id));
  return row;
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

async function volumeId(tx: Tx, number: number): Promise<number | undefined> {
  const [volume] = await tx.select({ id: volumes.id }).from(volumes).where(eq(volumes.number, number));
  return volume?.id;
}

/** What the audit log keeps of a chapter: its fields, and of its text only the size (revisions keep it). */
const summary = (row: {
  title: string;
  status: string;
  releaseAt: Date;
  coinsRequired: number;
  artwork: Artwork[];
  bodyMd: string;
  noteBefore: string | null;
  noteAfter: string | null;
  version: number;
}) => ({
  title: row.title,
  status: row.status,
  releaseAt: row.releaseAt.toISOString(),
  coinsRequired: row.coinsRequired,
  artwork: row.artwork.map((art) => art.url),
  words: countWords(row.bodyMd),
  // The notes' sizes in characters (0: none), as the text's is its words.
  notes: [row.noteBefore?.length ?? 0, row.noteAfter?.length ?? 0],
  version: row.version,
});

export type SaveOutcome =
  | { ok: true; id: number; number: number; version: number }
  | { ok: false; reason: "notFound" }
  | { ok: false; reason: "unknownVolume" }
  | {
      ok: false;
      reason: "conflict";
      /** The chapter as it is now, saved by someone else since the editor opened it. */
      current: { version: number; title: string; bodyMd: string; updatedAt: string; by: string | null };
    };

/**
 * Saves a chapter made from version `baseVersion`. The row is locked and its version compared: a save
 * from an older version is a conflict (the author's text stays in their editor, nothing is overwritten).
 * Otherwise the chapter takes the next version, the revision history gets it (and, on a first edit, the
 * version it replaces), the audit log the change, and the author's autosaved draft is cleared: all in one
 * transaction. The content revision moves (triggers), so every instance serves the new text within a second.
 */
export function saveChapter(
  id: number,
  input: ChapterInput,
  baseVersion: number,
  actor: Actor & { via: "admin" },
): Promise<SaveOutcome> {
  // Rendered before the transaction: no lock is held while the text is parsed.
  const text = chapterText(input.bodyMd);
  return db().transaction(async (tx) => {
    const [current] = await tx.select().from(chapters).where(eq(chapters.id, id)).for("update");
    if (!current) return { ok: false, reason: "notFound" };
    if (current.version !== baseVersion) {
      const [last] = await tx
        .select({ by: users.username })
        .from(chapterRevisions)
        .leftJoin(users, eq(users.id, chapterRevisions.authorId))
        .where(
          and(
            eq(chapterRevisions.chapterId, id),
            eq(chapterRevisions.language, "en"),
            eq(chapterRevisions.version, current.version),
          ),
        );
      return {
        ok: false,
        reason: "conflict",
        current: {
          version: current.version,
          title: current.title,
          bodyMd: current.bodyMd,
          updatedAt: current.updatedAt.toISOString(),
          by: last?.by ?? null,
        },
      };
    }
    const volume = await volumeId(tx, input.volume);
    if (volume === undefined) return { ok: false, reason: "unknownVolume" };
    const version = current.version + 1;
    // The version being replaced enters the history if it is not there (an imported chapter's first edit).
    await tx
      .insert(chapterRevisions)
      .values({
        chapterId: id,
        version: current.version,
        title: current.title,
        bodyMd: current.bodyMd,
        notes: notesOf(current),
      })
      .onConflictDoNothing();
    const [saved] = await tx
      .update(chapters)
      .set({
        title: input.title,
        volumeId: volume,
        ...text,
        wordCount: countWords(input.bodyMd),
        noteBefore: input.noteBefore,
        noteAfter: input.noteAfter,
        status: input.status,
        releaseAt: input.releaseAt,
        coinsRequired: input.coinsRequired,
        tags: input.tags,
        artwork: input.artwork,
        version,
        updatedAt: sql`now()`,
      })
      .where(eq(chapters.id, id))
      .returning();
    if (!saved) throw new Error(`chapter ${id} vanished under its lock`);
    // The notes as saved: a save that named none kept them as they were, and so does its revision.
    await tx.insert(chapterRevisions).values({
      chapterId: id,
      version,
      title: input.title,
      bodyMd: input.bodyMd,
      notes: notesOf(saved),
      authorId: actor.userId,
    });
    await recordAudit(tx, actor, {
      action: "chapter.update",
      subjectType: "chapter",
      subjectId: id,
      before: summary(current),
      after: summary(saved),
    });
    await tx
      .delete(editorDrafts)
      .where(and(eq(editorDrafts.authorId, actor.userId), eq(editorDrafts.key, `chapter:${id}`)));
    return { ok: true, id, number: saved.number, version };
  });
}

/**
 * Numbers are given out one transaction at a time (a lock held to its end): two creations at once take the
 * next number in turn, and a creation never races a chapter moving to another number (chapter-numbers).
 */
export async function lockChapterNumbers(tx: Pick<ReturnType<typeof db>, "execute">): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('chapters.numbers'))`);
}

/** A new chapter after the last one (its number is the next free), version 1, with its first revision. */
export function createChapter(input: ChapterInput, actor: Actor & { via: "admin" }): Promise<SaveOutcome> {
  const text = chapterText(input.bodyMd);
  return db().transaction(async (tx) => {
    const volume = await volumeId(tx, input.volume);
    if (volume === undefined) return { ok: false, reason: "unknownVolume" };
    await lockChapterNumbers(tx);
    const [last] = await tx.select({ number: max(chapters.number) }).from(chapters);
    const [created] = await tx
      .insert(chapters)
      .values({
        number: (last?.number ?? 0) + 1,
        volumeId: volume,
        title: input.title,
        ...text,
        wordCount: countWords(input.bodyMd),
        noteBefore: input.noteBefore,
        noteAfter: input.noteAfter,
        status: input.status,
        releaseAt: input.releaseAt,
        coinsRequired: input.coinsRequired,
        tags: input.tags,
        artwork: input.artwork,
      })
      .returning();
    if (!created) throw new Error("no chapter created");
    await tx.insert(chapterRevisions).values({
      chapterId: created.id,
      version: created.version,
      title: created.title,
      bodyMd: created.bodyMd,
      notes: notesOf(created),
      authorId: actor.userId,
    });
    await recordAudit(tx, actor, {
      action: "chapter.create",
      subjectType: "chapter",
      subjectId: created.id,
      after: { number: created.number, ...summary(created) },
    });
    await tx
      .delete(editorDrafts)
      .where(and(eq(editorDrafts.authorId, actor.userId), eq(editorDrafts.key, "new")));
    return { ok: true, id: created.id, number: created.number, version: created.version };
  });
}

export type DeleteOutcome =
  | { ok: true; number: number }
  | { ok: false; reason: "notFound" }
  | { ok: false; reason: "unlocked"; readers: number };

/**
 * Deletes a chapter nobody unlocked, with its history and drafts (readers' progress on it goes too). A
 * chapter readers paid for stays: the author unpublishes it (sets it to Draft) instead. The row is locked
 * first, so an unlock at the same moment waits and then finds no chapter (unlock.server.ts locks it too),
 * or comes first and the deletion is refused.
 */
export function deleteChapter(id: number, actor: Actor & { via: "admin" }): Promise<DeleteOutcome> {
  return db().transaction(async (tx) => {
    const [current] = await tx.select().from(chapters).where(eq(chapters.id, id)).for("update");
    if (!current) return { ok: false, reason: "notFound" };
    const [unlocked] = await tx
      .select({ readers: count() })
      .from(chapterUnlocks)
      .where(eq(chapterUnlocks.chapterId, id));
    if (unlocked && unlocked.readers > 0) return { ok: false, reason: "unlocked", readers: unlocked.readers };
    await tx.delete(chapters).where(eq(chapters.id, id));
    // The chapter's drafts and its translations' (`chapter:<id>:<language>`).
    await tx
      .delete(editorDrafts)
      .where(or(eq(editorDrafts.key, `chapter:${id}`), like(editorDrafts.key, `chapter:${id}:%`)));
    await recordAudit(tx, actor, {
      action: "chapter.delete",
      subjectType: "chapter",
      subjectId: id,
      before: { number: current.number, ...summary(current) },
    });
    return { ok: true, number: current.number };
  });
}

/** The notes a revision keeps of a chapter or translation row (ADR 100). */
export const notesOf = (row: { noteBefore: string | null; noteAfter: string | null }): RevisionNotes => ({
  before: row.noteBefore,
  after: row.noteAfter,
});

const sameNotes = (a: RevisionNotes, b: RevisionNotes) => a.before === b.before && a.after === b.after;

/** The language of a revision: the original's (`en`) or a translation's. */
export type RevisionLanguage = (typeof chapterRevisions.language.enumValues)[number];

/** A chapter's saved versions (or its translation's in `language`), newest first, with who saved each. */
export async function listRevisions(chapterId: number, language: RevisionLanguage = "en") {
  const rows = await db()
    .select({
      version: chapterRevisions.version,
      title: chapterRevisions.title,
      bodyMd: chapterRevisions.bodyMd,
      notes: chapterRevisions.notes,
      by: users.username,
      createdAt: chapterRevisions.createdAt,
    })
    .from(chapterRevisions)
    .leftJoin(users, eq(users.id, chapterRevisions.authorId))
    .where(and(eq(chapterRevisions.chapterId, chapterId), eq(chapterRevisions.language, language)))
    .orderBy(desc(chapterRevisions.version))
    .limit(200);
  return rows.map(({ bodyMd, notes, ...row }, index) => {
    // Whether this version changed the notes from the version kept before it (the first: whether it has any).
    // Unknown notes (a version kept before revisions had them, ADR 100) are never called a change.
    const first = index + 1 === rows.length && rows.length < 200;
    const before = first ? { before: null, after: null } : (rows[index + 1]?.notes ?? null);
    return {
      ...row,
      words: countWords(bodyMd),
      notesChanged: notes !== null && before !== null && !sameNotes(notes, before),
      createdAt: row.createdAt.toISOString(),
    };
  });
}

export async function getRevision(chapterId: number, version: number, language: RevisionLanguage = "en") {
  const [row] = await db()
    .select({
      version: chapterRevisions.version,
      title: chapterRevisions.title,
      bodyMd: chapterRevisions.bodyMd,
      notes: chapterRevisions.notes,
    })
    .from(chapterRevisions)
    .where(
      and(
        eq(chapterRevisions.chapterId, chapterId),
        eq(chapterRevisions.language, language),
        eq(chapterRevisions.version, version),
      ),
    );
  return row;
}

/** The changes from one text to another, line by line, for the revision view. */
export function textDiff(from: string, to: string): { kind: "same" | "added" | "removed"; text: string }[] {
  return diffLines(from, to).map((part) => ({
    kind: part.added ? "added" : part.removed ? "removed" : "same",
    text: part.value,
  }));
}

export type RevisionDiff = {
  version: number;
  parts: ReturnType<typeof textDiff>;
  /** The notes that changed (ADR 100), each line by line; none when the older version's notes are unknown. */
  notes: { place: "before" | "after"; parts: ReturnType<typeof textDiff> }[];
};

/** What changed from a kept version to the text and notes as they are now, for the revision views. */
export function revisionDiff(
  older: { version: number; bodyMd: string; notes: RevisionNotes | null },
  now: { bodyMd: string; noteBefore: string | null; noteAfter: string | null },
): RevisionDiff {
  const current = notesOf(now);
  const notes = older.notes;
  return {
    version: older.version,
    parts: textDiff(older.bodyMd, now.bodyMd),
    notes: notes
      ? (["before", "after"] as const)
          .filter((place) => (notes[place] ?? "") !== (current[place] ?? ""))
          .map((place) => ({ place, parts: textDiff(notes[place] ?? "", current[place] ?? "") }))
      : [],
  };
}

/** Keeps an author's unsaved text (autosave), replacing what they kept before for the same chapter. */
export async function saveDraft(
  authorId: number,
  key: string,
  draft: { title: string; bodyMd: string; baseVersion: number | null },
): Promise<Date> {
  const savedAt = new Date();
  await db()
    .insert(editorDrafts)
    .values({ authorId, key, ...draft, savedAt })
    .onConflictDoUpdate({
      target: [editorDrafts.authorId, editorDrafts.key],
      set: { title: draft.title, bodyMd: draft.bodyMd, baseVersion: draft.baseVersion, savedAt },
    });
  return savedAt;
}

export async function getDraft(authorId: number, key: string) {
  const [row] = await db()
    .select()
    .from(editorDrafts)
    .where(and(eq(editorDrafts.authorId, authorId), eq(editorDrafts.key, key)));
  return row && { ...row, savedAt: row.savedAt.toISOString() };
}

export async function deleteDraft(authorId: number, key: string): Promise<void> {
  await db()
    .delete(editorDrafts)
    .where(and(eq(editorDrafts.authorId, authorId), eq(editorDrafts.key, key)));
}
