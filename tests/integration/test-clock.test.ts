import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog } from "#db/schema";
import { moveReaderReading } from "~/features/site/test-clock.server";
import { readingTime, setTestClock } from "~/lib/clock.server";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader } from "../support/factories";

// The test clock is on here, as on the browser tests' server (TEST_CLOCK=true).
vi.mock("~/lib/env.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("~/lib/env.server")>();
  return { ...original, getEnv: () => ({ ...original.getEnv(), TEST_CLOCK: true }) };
});

/** How far a reader's reading time runs ahead of the real time, in whole seconds. */
const aheadSeconds = (userId: number) => Math.round((readingTime(userId).getTime() - Date.now()) / 1000);

const movesOf = (userId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "clock.reading"), eq(auditLog.subjectId, String(userId))));

afterEach(() => setTestClock(undefined));

describe.each(drivers)("one reader's reading time moved on (ADR 105) on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("moves the reader named by their e-mail, in any case, and audits it; an unknown address moves no one", async () => {
    const actor = await createAuthor("clock");
    const reader = await createReader({ prefix: "clocked" });
    const other = await createReader({ prefix: "unclocked" });
    expect(await moveReaderReading(` ${reader.email.toUpperCase()} `, 90, actor)).toBe(true);
    expect(aheadSeconds(reader.id)).toBe(90);
    expect(aheadSeconds(other.id)).toBe(0);
    expect(await movesOf(reader.id)).toMatchObject([{ actorId: actor.userId, after: { secondsOn: 90 } }]);
    expect(await moveReaderReading("nobody@example.com", 90, actor)).toBe(false);
    expect(await movesOf(other.id)).toEqual([]);
  });
});

describe.runIf(drivers.includes("postgres"))("one reader's reading time under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("twenty moves at once add up, each audited once", async () => {
    const actor = await createAuthor("clock-racer");
    const reader = await createReader({ prefix: "raced" });
    const moved = await Promise.all(
      Array.from({ length: 20 }, () => moveReaderReading(reader.email, 30, actor)),
    );
    expect(moved.every(Boolean)).toBe(true);
    expect(aheadSeconds(reader.id)).toBe(600);
    expect(await movesOf(reader.id)).toHaveLength(20);
  });
});
