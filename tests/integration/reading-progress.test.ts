import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { createAccount } from "~/features/auth/commands.server";
import { emptyProgress } from "~/features/reader/progress";
import { getProgress, receivedAt, saveProgress } from "~/features/reader/queries.server";
import { drivers, openTestDatabase } from "../support/database";
import { unique } from "../support/unique";

const NOW = new Date("2026-11-25T12:00:00.000Z");

describe("receivedAt", () => {
  it.each([
    ["1970-01-01T00:00:00.000Z", NOW.toISOString()],
    ["2026-11-25T11:59:00.000Z", "2026-11-25T11:59:00.000Z"],
    ["2099-01-01T00:00:00.000Z", NOW.toISOString()],
    ["1969-12-31T23:59:59.000Z", NOW.toISOString()],
  ])("%s is kept as %s", (sent, kept) => {
    expect(receivedAt(sent, NOW)).toBe(kept);
  });
});

describe.each(drivers)("a signed-in reader's progress on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("dates an unfinished chapter's record when it arrives, never 1970", async () => {
    const name = `progress${unique()}`;
    const id = await createAccount({ username: name, email: `${name}@example.com`, password: "secret1" });
    // Read for a while and bookmarked, never scrolled: a browser's record from before each second read dated
    // it still has the empty record's date. Opened 42 s before (the reading rule counts from the first write).
    await saveProgress(id, 2, emptyProgress(), new Date(NOW.getTime() - 42_000));
    await saveProgress(id, 2, { ...emptyProgress(), readingTime: 42, bookmarks: [3] }, NOW);
    const [kept] = Object.values(await getProgress(id, [2]));
    expect(kept).toMatchObject({ readingTime: 42, completed: false, lastReadAt: NOW.toISOString() });
    // A later, dated record moves it on; an undated one later still is dated then.
    const later = new Date(NOW.getTime() + 60_000);
    await saveProgress(id, 2, { ...emptyProgress(), readingTime: 50, bookmarks: [3] }, later);
    expect((await getProgress(id, [2]))[2]?.lastReadAt).toBe(later.toISOString());
  });
});
