import { inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { readingDays, readingProgress, users } from "#db/schema";
import { countWords } from "~/lib/words";
import { drivers, openTestDatabase } from "../../../tests/support/database";
import { generateLargeSerial, insertGeneratedReaders } from "./generate.server";

describe("generateLargeSerial", () => {
  it("makes 1,000 chapters of 3,000-5,000 words in 10 volumes, the same every time", () => {
    const bundle = generateLargeSerial();
    expect(bundle.volumes.map((v) => v.data.number)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(bundle.chapters).toHaveLength(1000);
    for (const chapter of bundle.chapters.filter((_, i) => i % 97 === 0)) {
      const words = countWords(chapter.body);
      expect(words).toBeGreaterThanOrEqual(3000);
      expect(words).toBeLessThanOrEqual(5100);
    }
    expect(new Set(bundle.chapters.map((c) => c.data.volume)).size).toBe(10);
    expect(generateLargeSerial().chapters[500]?.body).toBe(bundle.chapters[500]?.body);
  });
});

describe.each(drivers)("insertGeneratedReaders on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("adds the readers not there yet, each with chapters read and a reading day, and nobody can sign in as them", async () => {
    expect(await insertGeneratedReaders(handle.db, 25)).toBe(25);
    expect(await insertGeneratedReaders(handle.db, 30)).toBe(5);
    const generated = await handle.db.select().from(users).where(like(users.email, "%@readers.example"));
    expect(generated).toHaveLength(30);
    expect(generated.every((reader) => reader.passwordHash === null)).toBe(true);
    const ids = generated.map((reader) => reader.id);
    const progress = await handle.db
      .select()
      .from(readingProgress)
      .where(inArray(readingProgress.userId, ids));
    expect(progress.length).toBe(ids.reduce((sum, id) => sum + 1 + (id % 10), 0));
    const days = await handle.db.select().from(readingDays).where(inArray(readingDays.userId, ids));
    expect(days).toHaveLength(30);
  });

  it("refuses a count that is not a whole number from 1 to 1,000,000", async () => {
    for (const count of [0, -1, 1.5, Number.NaN, 1_000_001])
      await expect(insertGeneratedReaders(handle.db, count)).rejects.toThrow(/count/);
  });
});
