import { asc, type Column, eq, inArray, like, type SQL, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapterRedirects, chapters, payments, volumes, wikiPages } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { chapterText } from "~/features/content/markdown.server";
import { lockChapterNumbers } from "./chapter-editing.server";
import { relinked, renumbering } from "./renumbering";

export type MoveOutcome =
  | { ok: true; number: number; moved: number }
  | { ok: false; reason: "notFound" | "conflict" };

/** `update … set column = v.new from (values (old, new), …) as v(old, new) where column = v.old`. */
function remapped(moves: ReadonlyMap<number, number>): SQL {
  return sql.join(
    [...moves].map(([from, to]) => sql`(${from}::int, ${to}::int)`),
    sql`, `,
  );
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

/** Rewrites the links to moved chapters in every chapter, wiki page and volume summary that has one. */
async function relinkTexts(tx: Tx, moves: ReadonlyMap<number, number>): Promise<number> {
  let changed = 0;
  const linking = (column: Column) => like(column, "%/chapter/%");
  for (const row of await tx
    .select({ id: chapters.id, bodyMd: chapters.bodyMd })
    .from(chapters)
    .where(linking(chapters.bodyMd))) {
    const text = relinked(row.bodyMd, moves);
    if (text === row.bodyMd) continue;
    // A text change moves the version: an editor opened before it gets a conflict, not a silent overwrite.
    await tx
      .update(chapters)
      .set({ ...chapterText(text), version: sql`${chapters.version} + 1`, updatedAt: sql`now()` })
      .where(eq(chapters.id, row.id));
    changed++;
  }
  for (const row of await tx
    .select({ id: wikiPages.id, bodyMd: wikiPages.bodyMd })
    .from(wikiPages)
    .where(linking(wikiPages.bodyMd))) {
    const text = relinked(row.bodyMd, moves);
    if (text === row.bodyMd) continue;
    await tx.update(wikiPages).set({ bodyMd: text }).where(eq(wikiPages.id, row.id));
    changed++;
  }
  for (const row of await tx
    .select({ id: volumes.id, summaryMd: volumes.summaryMd })
    .from(volumes)
    .where(linking(volumes.summaryMd))) {
    const text = relinked(row.summaryMd, moves);
    if (text === row.summaryMd) continue;
    await tx.update(volumes).set({ summaryMd: text }).where(eq(volumes.id, row.id));
    changed++;
  }
  return changed;
}

/**
 * Moves chapter `id`, which the author saw as number `from`, to number `to`, with the chapters between
 * (see `renumbering`). Progress, unlocks, bookmarks, revisions and drafts name the chapter by id, so they
 * follow it; what names it by number follows here, in the same transaction: a checkout waiting to unlock it,
 * a wiki page it reveals, links in the texts, and the old numbers now free (`chapter_redirects`). Moves and
 * new chapters take their numbers one at a time (`lockChapterNumbers`), every chapter row is locked against
 * a save or an unlock in between, and a move made from a stale page (the chapter is no longer `from`) is a
 * conflict.
 */
export function moveChapter(
  id: number,
  from: number,
  to: number,
  actor: Actor & { via: "admin" },
): Promise<MoveOutcome> {
  return db().transaction(async (tx) => {
    await lockChapterNumbers(tx);
    const rows = await tx
      .select({ id: chapters.id, number: chapters.number })
      .from(chapters)
      .orderBy(asc(chapters.number))
      .for("update");
    const chapter = rows.find((row) => row.id === id);
    if (!chapter) return { ok: false, reason: "notFound" };
    if (chapter.number !== from) return { ok: false, reason: "conflict" };
    const moves = renumbering(
      rows.map((row) => row.number),
      from,
      to,
    );
    if (moves.size === 0) return { ok: true, number: to, moved: 0 };
    const movedIds = rows.filter((row) => moves.has(row.number)).map((row) => row.id);
    // Numbers are unique row by row: first out of the way (negative), then to their places.
    await tx
      .update(chapters)
      .set({ number: sql`-${chapters.number}` })
      .where(inArray(chapters.id, movedIds));
    await tx.execute(sql`
      update ${chapters} set number = moves.new
      from (values ${remapped(moves)}) as moves(old, new)
      where ${chapters.number} = -moves.old`);
    await tx.execute(sql`
      update ${payments} set chapter_number = moves.new
      from (values ${remapped(moves)}) as moves(old, new)
      where ${payments.chapterNumber} = moves.old and ${payments.status} = 'pending'`);
    await tx.execute(sql`
      update ${wikiPages} set reveals_chapter = moves.new
      from (values ${remapped(moves)}) as moves(old, new)
      where ${wikiPages.revealsChapter} = moves.old`);
    const relinkedTexts = await relinkTexts(tx, moves);
    // Each old number leads to its chapter (read only when no chapter holds that number).
    await tx
      .insert(chapterRedirects)
      .values(
        rows.filter((row) => moves.has(row.number)).map((row) => ({ number: row.number, chapterId: row.id })),
      )
      .onConflictDoUpdate({ target: chapterRedirects.number, set: { chapterId: sql`excluded.chapter_id` } });
    await recordAudit(tx, actor, {
      action: "chapter.move",
      subjectType: "chapter",
      subjectId: id,
      before: { number: from },
      after: { number: to, moved: Object.fromEntries(moves), relinkedTexts },
    });
    return { ok: true, number: to, moved: moves.size };
  });
}
