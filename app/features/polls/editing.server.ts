import { asc, count, desc, eq, inArray } from "drizzle-orm";
import { db } from "#db/client.server";
import { pollOptions, polls, pollVotes, uploads } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { pictureOf } from "~/features/uploads/picture";
import { listUploads } from "~/features/uploads/store.server";
import type { PollOptionInput } from "./poll-form";

/** A poll as the admin saves it: the question, its instants, its options in order. */
export type PollInput = { question: string; opensAt: Date; closesAt: Date; options: PollOptionInput[] };

export type PollSaved = { ok: true; id: number } | { ok: false; reason: "notFound" | "image" };

/** Every poll, the latest opening first, with its vote count: the admin's list. */
export async function listPollsForAdmin() {
  const rows = await db()
    .select({
      id: polls.id,
      question: polls.question,
      opensAt: polls.opensAt,
      closesAt: polls.closesAt,
      votes: count(pollVotes.userId),
    })
    .from(polls)
    .leftJoin(pollVotes, eq(pollVotes.pollId, polls.id))
    .groupBy(polls.id)
    .orderBy(desc(polls.opensAt), desc(polls.id));
  return rows;
}

/** The uploads an option's image may be chosen from (the newest), each by name and size. */
export async function imageChoices() {
  return (await listUploads(db())).flatMap((upload) =>
    pictureOf(upload)
      ? [{ id: upload.id, label: `${upload.originalFilename} (${upload.width}×${upload.height})` }]
      : [],
  );
}

/** A poll and its options, as the editor opens it; undefined when there is none. */
export async function getPollForEdit(id: number) {
  const [poll] = await db().select().from(polls).where(eq(polls.id, id));
  if (!poll) return undefined;
  const options = await db()
    .select({ label: pollOptions.label, uploadId: pollOptions.uploadId, filename: uploads.originalFilename })
    .from(pollOptions)
    .innerJoin(uploads, eq(uploads.id, pollOptions.uploadId))
    .where(eq(pollOptions.pollId, id))
    .orderBy(asc(pollOptions.position));
  return { poll, options };
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

/** What the audit log keeps of a poll: its fields and its options' labels and images. */
const logged = (input: PollInput) => ({
  question: input.question,
  opensAt: input.opensAt.toISOString(),
  closesAt: input.closesAt.toISOString(),
  options: input.options.map((option) => ({ label: option.label, uploadId: option.uploadId })),
});

async function imagesExist(tx: Tx, input: PollInput): Promise<boolean> {
  const ids = [...new Set(input.options.map((option) => option.uploadId))];
  const [row] = await tx.select({ found: count() }).from(uploads).where(inArray(uploads.id, ids));
  return row?.found === ids.length;
}

/**
 * Writes the options of a poll: options whose position stays keep their row (and their votes) with the new
 * label and image; positions no longer used go, with their votes; new positions are added.
 */
async function writeOptions(tx: Tx, pollId: number, options: PollOptionInput[]) {
  const existing = await tx
    .select({ id: pollOptions.id, position: pollOptions.position })
    .from(pollOptions)
    .where(eq(pollOptions.pollId, pollId));
  const gone = existing.filter((row) => row.position >= options.length).map((row) => row.id);
  if (gone.length > 0) await tx.delete(pollOptions).where(inArray(pollOptions.id, gone));
  for (const [position, option] of options.entries()) {
    await tx
      .insert(pollOptions)
      .values({ pollId, position, label: option.label, uploadId: option.uploadId })
      .onConflictDoUpdate({
        target: [pollOptions.pollId, pollOptions.position],
        set: { label: option.label, uploadId: option.uploadId },
      });
  }
}

/** A new poll from the admin ("poll.create" in the audit log). */
export async function createPoll(input: PollInput, actor: Actor): Promise<PollSaved> {
  return db().transaction(async (tx) => {
    if (!(await imagesExist(tx, input))) return { ok: false, reason: "image" } as const;
    const [row] = await tx
      .insert(polls)
      .values({ question: input.question, opensAt: input.opensAt, closesAt: input.closesAt })
      .returning({ id: polls.id });
    if (!row) throw new Error("poll not inserted");
    await writeOptions(tx, row.id, input.options);
    await recordAudit(tx, actor, {
      action: "poll.create",
      subjectType: "poll",
      subjectId: row.id,
      after: logged(input),
    });
    return { ok: true, id: row.id } as const;
  });
}

/**
 * A poll changed from the admin ("poll.update", before and after). The row is locked first, so two saves
 * at once write one after the other and each logs what it replaced.
 */
export async function savePoll(id: number, input: PollInput, actor: Actor): Promise<PollSaved> {
  return db().transaction(async (tx) => {
    const [before] = await tx.select().from(polls).where(eq(polls.id, id)).for("update");
    if (!before) return { ok: false, reason: "notFound" } as const;
    if (!(await imagesExist(tx, input))) return { ok: false, reason: "image" } as const;
    const options = await tx
      .select({ label: pollOptions.label, uploadId: pollOptions.uploadId })
      .from(pollOptions)
      .where(eq(pollOptions.pollId, id))
      .orderBy(asc(pollOptions.position));
    await tx
      .update(polls)
      .set({ question: input.question, opensAt: input.opensAt, closesAt: input.closesAt })
      .where(eq(polls.id, id));
    await writeOptions(tx, id, input.options);
    await recordAudit(tx, actor, {
      action: "poll.update",
      subjectType: "poll",
      subjectId: id,
      before: logged({ ...before, options }),
      after: logged(input),
    });
    return { ok: true, id } as const;
  });
}

/** A poll deleted from the admin, its options and votes with it ("poll.delete"); its question, or undefined. */
export async function deletePoll(id: number, actor: Actor): Promise<string | undefined> {
  return db().transaction(async (tx) => {
    const [gone] = await tx.delete(polls).where(eq(polls.id, id)).returning();
    if (!gone) return undefined;
    await recordAudit(tx, actor, {
      action: "poll.delete",
      subjectType: "poll",
      subjectId: id,
      before: { question: gone.question, opensAt: gone.opensAt.toISOString() },
    });
    return gone.question;
  });
}
