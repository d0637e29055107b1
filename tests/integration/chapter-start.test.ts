import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { type ChapterProgress, emptyProgress } from "~/features/reader/progress";
import { saveProgress } from "~/features/reader/queries.server";
import { loader } from "~/routes/chapter-start";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

const progress = (completed: boolean, lastReadAt: string): ChapterProgress => ({
  scrollPosition: completed ? 1 : 0.4,
  paragraph: 5,
  completionPercentage: completed ? 100 : 40,
  readingTime: 300,
  completed,
  bookmarks: [],
  lastReadAt,
});

/** A reader opens a chapter and writes their place five minutes later (the reading rule counts those). */
async function read(id: number, number: number, completed: boolean, lastReadAt: string) {
  const at = new Date(lastReadAt);
  await saveProgress(id, number, emptyProgress(), new Date(at.getTime() - 300_000));
  await saveProgress(id, number, progress(completed, lastReadAt), at);
}

const reader = () => createReader({ prefix: "start" });

async function startFor(cookie?: string, path = "/chapter") {
  const request = new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} });
  const response = (await loader({ request, params: {}, context: {} } as never)) as Response;
  return { status: response.status, location: response.headers.get("location") };
}

describe.each(drivers)("/chapter without a number on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("sends a visitor to chapter 1", async () => {
    expect(await startFor()).toEqual({ status: 302, location: "/chapter/1" });
  });

  it("sends a signed-in reader who has read nothing to chapter 1", async () => {
    const { cookie } = await reader();
    expect(await startFor(cookie)).toEqual({ status: 302, location: "/chapter/1" });
  });

  it("sends a reader back to the chapter they left unfinished, the latest they read", async () => {
    const { id, cookie } = await reader();
    await read(id, 1, true, "2026-11-01T10:00:00.000Z");
    await read(id, 3, false, "2026-11-02T10:00:00.000Z");
    expect(await startFor(cookie)).toEqual({ status: 302, location: "/chapter/3" });
  });

  it("sends a reader who finished a chapter on to the next", async () => {
    const { id, cookie } = await reader();
    await read(id, 2, true, "2026-11-03T10:00:00.000Z");
    expect(await startFor(cookie)).toEqual({ status: 302, location: "/chapter/3" });
  });
});
