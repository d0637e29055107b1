import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { users } from "#db/schema";
import {
  followSessionEvents,
  forgetKeptSessions,
  readSessionEvents,
  stopFollowingSessionEvents,
} from "~/features/auth/session.server";
import { sharedViewerOf } from "~/features/page-cache/viewer.server";
import { siteRoutes } from "~/routes";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

const sharedViewer = sharedViewerOf(siteRoutes.match);

/**
 * A reader's own pages (ADR 53): the page cache keeps /account, /achievements, /settings and /checkout (and
 * their route data) for one session of one reader, under their generation, which moves with any change of
 * theirs; nothing is kept while the session events are not followed.
 */
const cookies = (cookie: string) => new Map([cookie.split("=") as [string, string]]);
const own = ["/account", "/account.data", "/achievements", "/settings", "/checkout", "/checkout.data"];

describe.each(drivers)("a reader's own pages on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    stopFollowingSessionEvents();
    await handle.close();
  });

  it("are grouped by reader, session and generation, and by nothing while the events are not followed", async () => {
    const reader = await createReader({ prefix: "own" });
    const again = await createReader({ prefix: "own-other" });
    for (const path of own) expect(await sharedViewer(path, cookies(reader.cookie)), path).toBeUndefined();
    await followSessionEvents(60_000);
    const groups = new Map<string, string | undefined>();
    for (const path of own) groups.set(path, await sharedViewer(path, cookies(reader.cookie)));
    expect(new Set(groups.values()).size).toBe(1);
    const group = groups.get("/account");
    expect(group).toMatch(new RegExp(`^own ${reader.id} \\d+ \\d+$`));
    expect(await sharedViewer("/account", cookies(again.cookie))).not.toBe(group);
    // Pages that are not kept for their reader stay their own.
    for (const path of ["/account/data", "/coins", "/account/subscription", "/orders/1", "/admin"])
      expect(await sharedViewer(path, cookies(reader.cookie)), path).toBeUndefined();
    // A change of theirs made here moves the group at once; nobody else's moves.
    const otherGroup = await sharedViewer("/account", cookies(again.cookie));
    forgetKeptSessions(reader.id);
    const moved = await sharedViewer("/account", cookies(reader.cookie));
    expect(moved).not.toBe(group);
    expect(await sharedViewer("/account", cookies(again.cookie))).toBe(otherGroup);
    // A change written to the database (by any instance) moves it once the events are read; a read that
    // finds no event of theirs does not.
    const before = await sharedViewer("/account", cookies(reader.cookie));
    await readSessionEvents();
    expect(await sharedViewer("/account", cookies(reader.cookie))).toBe(before);
    await db().update(users).set({ timeZone: "Asia/Tokyo" }).where(eq(users.id, reader.id));
    expect(await sharedViewer("/account", cookies(reader.cookie))).toBe(before);
    await readSessionEvents();
    expect(await sharedViewer("/account", cookies(reader.cookie))).not.toBe(before);
  });
});
