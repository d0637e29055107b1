import { and, eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { pollOptions, polls, pollVotes } from "#db/schema";
import type { MembershipTier } from "~/features/membership/tiers";
import { AppError } from "~/lib/errors";
import { pollPhase, voteRefusal } from "./rules";

/** A vote refused: the poll is not open, the reader's tier does not vote, or no such option. */
export class VoteRefused extends AppError {
  constructor(reason: string, status: number) {
    super(`poll.${reason}`, status, `polls.errors.${reason}`);
    this.name = "VoteRefused";
  }
}

/**
 * A reader's vote, or a change of it (docs/product-rules.md "Votes on art"): one row per reader and poll,
 * written by one upsert on its primary key, so any number of votes at once by one reader leave one row, the
 * last one written. The poll's times and the option are read in the same statement's snapshot as the write:
 * the upsert inserts only while the poll is open and the option is the poll's.
 */
export async function castVote(
  voter: { userId: number; tier: MembershipTier },
  input: { poll: number; option: number },
  now = new Date(),
): Promise<void> {
  const [poll] = await db()
    .select({ opensAt: polls.opensAt, closesAt: polls.closesAt })
    .from(polls)
    .where(eq(polls.id, input.poll));
  if (!poll) throw new VoteRefused("choice", 404);
  const refusal = voteRefusal(voter.tier, pollPhase(poll, now));
  if (refusal) throw new VoteRefused(refusal, refusal === "tier" ? 403 : 409);
  const written = await db()
    .insert(pollVotes)
    .select(
      db()
        .select({
          pollId: pollOptions.pollId,
          userId: sql<number>`${voter.userId}::int`.as("user_id"),
          optionId: pollOptions.id,
          votedAt: sql<Date>`${now.toISOString()}::timestamptz`.as("voted_at"),
        })
        .from(pollOptions)
        .innerJoin(polls, eq(polls.id, pollOptions.pollId))
        .where(
          and(
            eq(pollOptions.id, input.option),
            eq(pollOptions.pollId, input.poll),
            sql`${polls.opensAt} <= ${now.toISOString()}::timestamptz`,
            sql`${polls.closesAt} > ${now.toISOString()}::timestamptz`,
          ),
        ),
    )
    .onConflictDoUpdate({
      target: [pollVotes.pollId, pollVotes.userId],
      set: { optionId: sql`excluded.option_id`, votedAt: sql`excluded.voted_at` },
    })
    .returning({ optionId: pollVotes.optionId });
  if (written.length === 0) throw new VoteRefused("choice", 404);
}
