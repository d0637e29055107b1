import { and, count, eq, isNull, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { qaMails, qaMonths, qaQuestions } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { getMembership } from "~/features/membership/queries.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { membersToTell } from "./members.server";
import { type MonthInput, type MonthKey, mayAsk, monthKeyAt, QA_LIMITS, type QuestionInput } from "./rules";

export type AskOutcome =
  | { ok: true; id: number; month: MonthKey; left: number }
  | { ok: false; reason: "tier" | "limit" | "closed" };

/**
 * Keeps a reader's question in this month (the site's time zone), if their tier holds the monthly Q&A and they
 * have asked fewer than QA_LIMITS.perMonth this month. The count and the insert run under an advisory lock of
 * the reader's own, so any number of asks at once on PostgreSQL keep exactly the limit (ADR 82); a month the
 * author has published takes no more questions.
 */
export async function askQuestion(
  userId: number,
  input: QuestionInput,
  now = new Date(),
): Promise<AskOutcome> {
  if (!mayAsk((await getMembership(userId, now)).tier)) return { ok: false, reason: "tier" };
  const month = monthKeyAt(now, getEnv().SITE_TIME_ZONE);
  return db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('qa.ask'), ${userId}::integer)`);
    const [published] = await tx
      .select({ at: qaMonths.publishedAt })
      .from(qaMonths)
      .where(and(eq(qaMonths.month, month), sql`${qaMonths.publishedAt} is not null`));
    if (published) return { ok: false, reason: "closed" } as const;
    const [asked] = await tx
      .select({ n: count() })
      .from(qaQuestions)
      .where(and(eq(qaQuestions.userId, userId), eq(qaQuestions.month, month)));
    const used = asked?.n ?? 0;
    if (used >= QA_LIMITS.perMonth) return { ok: false, reason: "limit" } as const;
    const [kept] = await tx
      .insert(qaQuestions)
      .values({ userId, month, body: input.question, anonymous: input.anonymous, createdAt: now })
      .returning({ id: qaQuestions.id });
    if (!kept) throw new Error("question not kept");
    return { ok: true, id: kept.id, month, left: QA_LIMITS.perMonth - used - 1 } as const;
  });
}

/** Gives, changes or (with empty text) takes back the author's answer to one question; audited. */
export async function answerQuestion(
  id: number,
  answer: string,
  actor: Actor,
): Promise<{ ok: true; month: string } | { ok: false; reason: "notFound" }> {
  return db().transaction(async (tx) => {
    const [before] = await tx
      .select({ month: qaQuestions.month, answer: qaQuestions.answer })
      .from(qaQuestions)
      .where(eq(qaQuestions.id, id))
      .for("update");
    if (!before) return { ok: false, reason: "notFound" } as const;
    const after = answer === "" ? null : answer;
    if (after === before.answer) return { ok: true, month: before.month } as const;
    await tx
      .update(qaQuestions)
      .set({ answer: after, answeredAt: after === null ? null : sql`now()` })
      .where(eq(qaQuestions.id, id));
    await recordAudit(tx, actor, {
      action: after === null ? "qa.unanswer" : "qa.answer",
      subjectType: "qaQuestion",
      subjectId: id,
      before: { answer: before.answer },
      after: { answer: after },
    });
    return { ok: true, month: before.month } as const;
  });
}

export type PublishOutcome = { published: boolean; queued: number };

/**
 * Saves a month's title, intro and visibility (audited), and with `publish` publishes it: the update that sets
 * `published_at` where it was null claims the month, and the same transaction queues one e-mail per member
 * who chose Q&A e-mails. A second publish (another tab, another author) finds it published and queues none.
 */
export async function saveMonth(
  month: MonthKey,
  input: MonthInput,
  actor: Actor,
  now = new Date(),
): Promise<PublishOutcome> {
  const publish = input.intent === "publish";
  // Found before the transaction: on PGlite it holds the one connection.
  const members = publish ? await membersToTell(now) : [];
  const fields = { title: input.title, intro: input.intro, visibility: input.visibility, updatedAt: now };
  const outcome = await db().transaction(async (tx) => {
    // The first save makes the row; of two at once, the other finds it made and updates it, locked.
    const [created] = await tx
      .insert(qaMonths)
      .values({ month, ...fields })
      .onConflictDoNothing()
      .returning({ month: qaMonths.month });
    const [before] = created
      ? []
      : await tx.select().from(qaMonths).where(eq(qaMonths.month, month)).for("update");
    if (before) await tx.update(qaMonths).set(fields).where(eq(qaMonths.month, month));
    await recordAudit(tx, actor, {
      action: before ? "qa.update" : "qa.create",
      subjectType: "qaMonth",
      subjectId: month,
      before: before
        ? { title: before.title, intro: before.intro, visibility: before.visibility }
        : undefined,
      after: { title: input.title, intro: input.intro, visibility: input.visibility },
    });
    if (!publish) return { published: false, queued: 0 };
    const [claimed] = await tx
      .update(qaMonths)
      .set({ publishedAt: now })
      .where(and(eq(qaMonths.month, month), isNull(qaMonths.publishedAt)))
      .returning({ month: qaMonths.month });
    if (!claimed) return { published: false, queued: 0 };
    await recordAudit(tx, actor, { action: "qa.publish", subjectType: "qaMonth", subjectId: month });
    if (!members.length) return { published: true, queued: 0 };
    const rows = await tx
      .insert(qaMails)
      .values(members.map((userId) => ({ userId, month })))
      .onConflictDoNothing()
      .returning({ id: qaMails.id });
    return { published: true, queued: rows.length };
  });
  if (outcome.published)
    logger.info({ event: "qa.published", month, queued: outcome.queued }, "Q&A published");
  return outcome;
}
