import { and, count, eq, gt, min } from "drizzle-orm";
import { db } from "#db/client.server";
import { betaFeedback, chapters, users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { BETA_LIMITS, type FeedbackInput } from "./limits";
import { blockTexts, quoteOf } from "./paragraphs";
import type { BetaChapter } from "./queries.server";

export type MarkOutcome = { ok: true; betaReaders: boolean } | { ok: false; reason: "notFound" | "notDraft" };

/**
 * Offers a draft to beta readers, or stops (audit-logged as `chapter.beta`). Only a draft may be marked: a
 * published chapter is read at /chapter/N. Unmarking is always allowed; the notes written stay.
 */
export function setBetaReaders(chapterId: number, on: boolean, actor: Actor): Promise<MarkOutcome> {
  return db().transaction(async (tx) => {
    const [chapter] = await tx
      .select({ status: chapters.status, betaReaders: chapters.betaReaders })
      .from(chapters)
      .where(eq(chapters.id, chapterId))
      .for("update");
    if (!chapter) return { ok: false, reason: "notFound" };
    if (on && chapter.status !== "draft") return { ok: false, reason: "notDraft" };
    if (chapter.betaReaders === on) return { ok: true, betaReaders: on };
    await tx.update(chapters).set({ betaReaders: on }).where(eq(chapters.id, chapterId));
    await recordAudit(tx, actor, {
      action: "chapter.beta",
      subjectType: "chapter",
      subjectId: chapterId,
      before: { betaReaders: chapter.betaReaders },
      after: { betaReaders: on },
    });
    return { ok: true, betaReaders: on };
  });
}

export type FeedbackOutcome =
  | { ok: true; id: number; left: number }
  | { ok: false; reason: "gone" }
  | { ok: false; reason: "paragraph" }
  | { ok: false; reason: "rateLimited"; retryAfterSeconds: number };

const HOUR_MS = 60 * 60 * 1000;

/**
 * Leaves a note on a beta chapter the reader may read (the caller checked the perk): on the whole chapter,
 * or on one of its paragraphs, whose words are kept with it. At most `perHour` per reader and chapter in
 * any hour, counted under the reader's row lock, so parallel posts on several instances cannot pass it
 * together. A chapter published or unmarked meanwhile takes no more notes.
 */
export async function postFeedback(
  userId: number,
  chapter: Pick<BetaChapter, "id" | "html">,
  input: FeedbackInput,
  now = new Date(),
): Promise<FeedbackOutcome> {
  let quote = "";
  if (input.paragraph !== undefined) {
    const text = blockTexts(chapter.html)[input.paragraph];
    if (text === undefined) return { ok: false, reason: "paragraph" };
    quote = quoteOf(text);
  }
  return db().transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const [still] = await tx
      .select({ id: chapters.id })
      .from(chapters)
      .where(and(eq(chapters.id, chapter.id), eq(chapters.status, "draft"), eq(chapters.betaReaders, true)));
    if (!still) return { ok: false, reason: "gone" };
    const [recent] = await tx
      .select({ n: count(), oldest: min(betaFeedback.createdAt) })
      .from(betaFeedback)
      .where(
        and(
          eq(betaFeedback.userId, userId),
          eq(betaFeedback.chapterId, chapter.id),
          gt(betaFeedback.createdAt, new Date(now.getTime() - HOUR_MS)),
        ),
      );
    const sent = recent?.n ?? 0;
    if (sent >= BETA_LIMITS.perHour) {
      const oldest = recent?.oldest ? new Date(recent.oldest).getTime() : now.getTime();
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + HOUR_MS - now.getTime()) / 1000));
      return { ok: false, reason: "rateLimited", retryAfterSeconds };
    }
    const [row] = await tx
      .insert(betaFeedback)
      .values({
        chapterId: chapter.id,
        userId,
        paragraph: input.paragraph ?? null,
        quote,
        body: input.body,
        createdAt: now,
      })
      .returning({ id: betaFeedback.id });
    return { ok: true, id: row?.id ?? 0, left: BETA_LIMITS.perHour - sent - 1 };
  });
}
