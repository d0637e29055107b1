import { vi } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { startRevisionPoll, stopRevisionPoll } from "~/features/site/revision.server";

/**
 * Statements the database receives during `run` (Drizzle's queries and the prepared ones, on either driver),
 * as on a running server: with the content revision read, so what is kept until it moves is read once, by a
 * first run that is not counted (it also awards what is due: the count is of a steady visit).
 */
export async function countStatements(handle: DatabaseHandle, run: () => Promise<unknown>) {
  await startRevisionPoll(3_600_000); // read once now; no poll falls inside the count
  try {
    await run();
    const client = (handle.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const queries = vi.spyOn(client, "query");
    const prepared = vi.spyOn(handle, "preparedRows");
    try {
      await run();
      // node-postgres runs a prepared statement through the pool's `query` too; PGlite through its protocol.
      const total = queries.mock.calls.length + (handle.kind === "pglite" ? prepared.mock.calls.length : 0);
      return { prepared: prepared.mock.calls.length, total };
    } finally {
      queries.mockRestore();
      prepared.mockRestore();
    }
  } finally {
    stopRevisionPoll();
  }
}
