import { and, asc, count, desc, eq, inArray, lte } from "drizzle-orm";
import { db } from "#db/client.server";
import { pollOptions, polls, pollVotes, uploads } from "#db/schema";
import { type Picture, pictureOf } from "~/features/uploads/picture";
import { type PollPhase, percentages, pollPhase, resultsVisible } from "./rules";

/** The polls /polls lists at most: the open ones and the latest closed. */
export const POLLS_LISTED = 40;

export type PollOptionView = {
  id: number;
  label: string;
  picture: Picture | undefined;
  /** Counts and shares only when the results show to this reader (rules.ts `resultsVisible`). */
  votes?: number;
  percent?: number;
};

export type PollView = {
  id: number;
  question: string;
  opensAt: string;
  closesAt: string;
  phase: PollPhase;
  /** The option this reader voted for, if they did. */
  myOption: number | null;
  total?: number;
  options: PollOptionView[];
};

/** The polls that have opened, the open ones first (closing soonest first), then the closed, latest first. */
async function openedPolls(now: Date) {
  const rows = await db()
    .select()
    .from(polls)
    .where(lte(polls.opensAt, now))
    .orderBy(desc(polls.closesAt), desc(polls.id))
    .limit(POLLS_LISTED);
  const open = rows.filter((poll) => pollPhase(poll, now) === "open").reverse();
  return [...open, ...rows.filter((poll) => pollPhase(poll, now) === "closed")];
}

/** Each poll's options with their image, in position order. */
async function optionsOf(pollIds: number[]) {
  if (pollIds.length === 0) return [];
  return db()
    .select({
      id: pollOptions.id,
      pollId: pollOptions.pollId,
      label: pollOptions.label,
      width: uploads.width,
      height: uploads.height,
      variants: uploads.variants,
    })
    .from(pollOptions)
    .innerJoin(uploads, eq(uploads.id, pollOptions.uploadId))
    .where(inArray(pollOptions.pollId, pollIds))
    .orderBy(asc(pollOptions.pollId), asc(pollOptions.position));
}

async function countsOf(pollIds: number[]): Promise<Map<number, number>> {
  if (pollIds.length === 0) return new Map();
  const rows = await db()
    .select({ optionId: pollVotes.optionId, votes: count() })
    .from(pollVotes)
    .where(inArray(pollVotes.pollId, pollIds))
    .groupBy(pollVotes.optionId);
  return new Map(rows.map((row) => [row.optionId, row.votes]));
}

async function votesOf(userId: number | undefined, pollIds: number[]): Promise<Map<number, number>> {
  if (userId === undefined || pollIds.length === 0) return new Map();
  const rows = await db()
    .select({ pollId: pollVotes.pollId, optionId: pollVotes.optionId })
    .from(pollVotes)
    .where(and(eq(pollVotes.userId, userId), inArray(pollVotes.pollId, pollIds)));
  return new Map(rows.map((row) => [row.pollId, row.optionId]));
}

/**
 * The polls as this reader (or a visitor: no `userId`) sees them now: four queries whatever the number of
 * polls. The counts leave the server only where the results show to this reader.
 */
export async function listPolls(userId: number | undefined, now = new Date()): Promise<PollView[]> {
  const shown = await openedPolls(now);
  const ids = shown.map((poll) => poll.id);
  const [options, counts, mine] = await Promise.all([optionsOf(ids), countsOf(ids), votesOf(userId, ids)]);
  return shown.map((poll) => {
    const phase = pollPhase(poll, now);
    const myOption = mine.get(poll.id) ?? null;
    const own = options.filter((option) => option.pollId === poll.id);
    const base = {
      id: poll.id,
      question: poll.question,
      opensAt: poll.opensAt.toISOString(),
      closesAt: poll.closesAt.toISOString(),
      phase,
      myOption,
    };
    const views = own.map((option) => ({ id: option.id, label: option.label, picture: pictureOf(option) }));
    if (!resultsVisible(phase, myOption !== null)) return { ...base, options: views };
    const votes = own.map((option) => counts.get(option.id) ?? 0);
    const shares = percentages(votes);
    return {
      ...base,
      total: votes.reduce((sum, value) => sum + value, 0),
      options: views.map((view, index) => ({ ...view, votes: votes[index], percent: shares[index] })),
    };
  });
}
