import { and, asc, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { qaMonths, qaQuestions, users } from "#db/schema";
import { renderCommentMarkdown } from "~/features/content/markdown.server";
import type { MembershipTier } from "~/features/membership/tiers";
import { getEnv } from "~/lib/env.server";
import { type MonthKey, mayAsk, monthKeyAt, QA_LIMITS } from "./rules";

/** A question as the pages show it: its words, the asker's name and choice, the answer's Markdown. */
const questionColumns = {
  id: qaQuestions.id,
  body: qaQuestions.body,
  anonymous: qaQuestions.anonymous,
  asker: users.username,
  answer: qaQuestions.answer,
};

/** What the /qa form shows a reader: whether they may ask, how many they have left, their questions this month. */
export async function askerView(userId: number, tier: MembershipTier, now = new Date()) {
  const month = monthKeyAt(now, getEnv().SITE_TIME_ZONE);
  if (!mayAsk(tier)) return { month, mayAsk: false as const };
  const [asked, [published]] = await Promise.all([
    db()
      .select({ id: qaQuestions.id, body: qaQuestions.body, anonymous: qaQuestions.anonymous })
      .from(qaQuestions)
      .where(and(eq(qaQuestions.userId, userId), eq(qaQuestions.month, month)))
      .orderBy(asc(qaQuestions.id)),
    db().select({ at: qaMonths.publishedAt }).from(qaMonths).where(eq(qaMonths.month, month)),
  ]);
  return {
    month,
    mayAsk: true as const,
    closed: Boolean(published?.at),
    asked,
    left: Math.max(0, QA_LIMITS.perMonth - asked.length),
  };
}

/** The published months, newest first, with how many questions each answered. */
export async function publishedMonths() {
  const answered = db()
    .select({ month: qaQuestions.month, n: count().as("n") })
    .from(qaQuestions)
    .where(isNotNull(qaQuestions.answer))
    .groupBy(qaQuestions.month)
    .as("answered");
  const rows = await db()
    .select({
      month: qaMonths.month,
      title: qaMonths.title,
      visibility: qaMonths.visibility,
      publishedAt: qaMonths.publishedAt,
      answered: sql<number>`coalesce(${answered.n}, 0)`.mapWith(Number),
    })
    .from(qaMonths)
    .leftJoin(answered, eq(answered.month, qaMonths.month))
    .where(isNotNull(qaMonths.publishedAt))
    .orderBy(desc(qaMonths.month));
  return rows.map((row) => ({ ...row, publishedAt: (row.publishedAt as Date).toISOString() }));
}

/**
 * A published month as `tier` may read it: its title, intro and answered questions (the asker by display
 * name, or none when they asked anonymously) always; the answers (Markdown rendered as comments are, no raw
 * HTML) for everyone when the author chose so, else only for readers whose tier holds the monthly Q&A.
 * Undefined for a month not published.
 */
export async function publishedMonth(month: MonthKey, tier: MembershipTier) {
  const [row] = await db()
    .select()
    .from(qaMonths)
    .where(and(eq(qaMonths.month, month), isNotNull(qaMonths.publishedAt)));
  if (!row?.publishedAt) return undefined;
  const open = row.visibility === "everyone" || mayAsk(tier);
  const page = {
    month,
    title: row.title,
    intro: row.intro,
    visibility: row.visibility,
    publishedAt: row.publishedAt.toISOString(),
  };
  const answered = await db()
    .select(questionColumns)
    .from(qaQuestions)
    .innerJoin(users, eq(users.id, qaQuestions.userId))
    .where(and(eq(qaQuestions.month, month), isNotNull(qaQuestions.answer)))
    .orderBy(asc(qaQuestions.id));
  return {
    ...page,
    open,
    questions: answered.map((question) => ({
      id: question.id,
      body: question.body,
      asker: question.anonymous ? null : question.asker,
      // A reader who may not read the answers is sent none: the page shows the questions and how to join.
      answerHtml: open ? renderCommentMarkdown(question.answer ?? "") : null,
    })),
  };
}

/** The months the admin can open: those with questions or a saved page, newest first, and this month. */
export async function adminMonths(now = new Date()) {
  const current = monthKeyAt(now, getEnv().SITE_TIME_ZONE);
  const rows = await db().execute(sql`
    select m.month, count(q.id)::int as questions, count(q.answer)::int as answered,
      (select p.published_at is not null from ${qaMonths} p where p.month = m.month) as published
    from (select month from ${qaQuestions} union select month from ${qaMonths} union select ${current}) m
    left join ${qaQuestions} q on q.month = m.month
    group by m.month order by m.month desc limit 36`);
  return {
    current,
    months: (
      rows as unknown as {
        rows: { month: string; questions: number; answered: number; published: boolean | null }[];
      }
    ).rows.map((row) => ({ ...row, published: Boolean(row.published) })),
  };
}

/** One month for the author: its page (if saved) and every question asked in it, with the asker's name. */
export async function adminMonth(month: MonthKey) {
  const [[page], questions] = await Promise.all([
    db().select().from(qaMonths).where(eq(qaMonths.month, month)),
    db()
      .select({ ...questionColumns, createdAt: qaQuestions.createdAt })
      .from(qaQuestions)
      .innerJoin(users, eq(users.id, qaQuestions.userId))
      .where(eq(qaQuestions.month, month))
      .orderBy(asc(qaQuestions.id)),
  ]);
  return {
    page: page
      ? {
          title: page.title,
          intro: page.intro,
          visibility: page.visibility,
          publishedAt: page.publishedAt?.toISOString() ?? null,
        }
      : null,
    questions: questions.map((question) => ({
      ...question,
      createdAt: question.createdAt.toISOString(),
      answerHtml: question.answer ? renderCommentMarkdown(question.answer) : null,
    })),
  };
}
