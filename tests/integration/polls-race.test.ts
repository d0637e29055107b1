import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { pollVotes, uploads } from "#db/schema";
import { createPoll } from "~/features/polls/editing.server";
import { listPolls } from "~/features/polls/queries.server";
import { castVote } from "~/features/polls/voting.server";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

/**
 * Exactly one vote per reader per poll, on PostgreSQL (a real pool of connections, where the statements truly
 * run at once; PGlite runs one at a time): 50 votes at once by one reader leave one row, one of the options
 * they chose; 50 readers at once leave 50 rows, counted in the results.
 */
describe.skipIf(!drivers.includes("postgres"))("votes at once on postgres", () => {
  let handle: DatabaseHandle;
  let poll: { id: number; options: number[] };
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
    const author = await createReader({ prefix: "raceauthor" });
    const images = await db()
      .insert(uploads)
      .values(
        ["a", "b"].map((letter) => ({
          hash: letter.repeat(32),
          keyPrefix: `uploads/${letter.repeat(32)}/`,
          originalFilename: `${letter}.png`,
          contentType: "image/png",
          width: 10,
          height: 10,
          bytes: 10,
          variants: [],
        })),
      )
      .returning({ id: uploads.id });
    const saved = await createPoll(
      {
        question: "Raced",
        opensAt: new Date(Date.now() - 60_000),
        closesAt: new Date(Date.now() + 86_400_000),
        options: images.map((image, index) => ({ label: `Option ${index}`, uploadId: image.id })),
      },
      { via: "admin", userId: author.id },
    );
    if (!saved.ok) throw new Error(saved.reason);
    const shown = (await listPolls(undefined)).find((p) => p.id === saved.id);
    poll = { id: saved.id, options: shown?.options.map((option) => option.id) ?? [] };
  });
  afterAll(() => handle.close());

  it("keeps one row when one reader votes 50 times at once, for either option", async () => {
    const reader = await createReader({ prefix: "racer" });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        castVote(
          { userId: reader.id, tier: "analyst" },
          { poll: poll.id, option: poll.options[index % 2] ?? 0 },
        ),
      ),
    );
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    const rows = await db().select().from(pollVotes).where(eq(pollVotes.userId, reader.id));
    expect(rows).toHaveLength(1);
    expect(poll.options).toContain(rows[0]?.optionId);
  });

  it("keeps one row each when 50 readers vote at once, and counts them all", async () => {
    const readers = await Promise.all(Array.from({ length: 50 }, () => createReader({ prefix: "crowd" })));
    await Promise.all(
      readers.map((reader, index) =>
        castVote(
          { userId: reader.id, tier: "first_human" },
          { poll: poll.id, option: poll.options[index % 2] ?? 0 },
        ),
      ),
    );
    const rows = await db().select().from(pollVotes).where(eq(pollVotes.pollId, poll.id));
    // The 50 readers, and the one reader of the test before.
    expect(rows).toHaveLength(51);
    const voter = readers[0];
    const view = (await listPolls(voter?.id)).find((p) => p.id === poll.id);
    expect(view?.total).toBe(51);
    expect(view?.options.reduce((sum, option) => sum + (option.votes ?? 0), 0)).toBe(51);
  });
});
