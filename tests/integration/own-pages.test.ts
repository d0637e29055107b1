import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { chapters, chapterUnlocks, subscriptions, users } from "#db/schema";
import {
  followSessionEvents,
  forgetKeptSessions,
  readSessionEvents,
  stopFollowingSessionEvents,
} from "~/features/auth/session.server";
import { saveCart } from "~/features/cart/queries.server";
import { sharedViewerOf } from "~/features/page-cache/viewer.server";
import { siteRoutes } from "~/routes";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";
import { unique } from "../support/unique";

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
    for (const path of ["/account/data", "/cart", "/account/subscription", "/orders/1", "/admin"])
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

  it("names the access pages' groups by access and balance, moved by a change of either (ADR 101)", async () => {
    await followSessionEvents(60_000);
    const reader = await createReader({ prefix: "access" });
    const other = await createReader({ prefix: "access-other" });
    const group = (path: string, who: { cookie: string }) => sharedViewer(path, cookies(who.cookie));
    const toc = await group("/toc", reader);
    const coins = await group("/coins", reader);
    expect(toc).toMatch(/^access /);
    // Two readers alike share each page, its route data too.
    expect(await group("/toc", other)).toBe(toc);
    expect(await group("/toc.data", other)).toBe(toc);
    expect(await group("/es/toc", other)).toBe(toc);
    expect(await group("/coins", other)).toBe(coins);
    // Another balance: another /coins, the same table.
    await db().update(users).set({ coinBalance: 7 }).where(eq(users.id, reader.id));
    await readSessionEvents();
    expect(await group("/coins", reader)).not.toBe(coins);
    expect(await group("/toc", reader)).toBe(toc);
    // An unlock: another table.
    const [chapter] = await db().select({ id: chapters.id }).from(chapters).limit(1);
    if (!chapter) throw new Error("the test database has no chapter");
    await db().insert(chapterUnlocks).values({ userId: reader.id, chapterId: chapter.id, coinsSpent: 1 });
    await readSessionEvents();
    expect(await group("/toc", reader)).not.toBe(toc);
    expect(await group("/toc", other)).toBe(toc);
    // An author's pages are rendered for them; a visitor's are the visitors'.
    const author = await createReader({ prefix: "access-author" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
    await readSessionEvents();
    expect(await group("/toc", author)).toBeUndefined();
    expect(await sharedViewer("/toc", new Map())).toBe("visitor");
  });

  it("shares the shop by cart and gives a subscriber their own fundraiser, once the row is written anywhere (ADR 102)", async () => {
    await followSessionEvents(60_000);
    const reader = await createReader({ prefix: "cart" });
    const other = await createReader({ prefix: "cart-other" });
    const group = (path: string, who: { cookie: string }) => sharedViewer(path, cookies(who.cookie));
    const pages = ["/shop", "/shop/product/1", "/fundraiser", "/es/fundraiser"];
    const shared = new Map<string, string | undefined>();
    for (const path of pages) shared.set(path, await group(path, other));
    for (const path of pages) {
      expect(shared.get(path), path).toMatch(/^access /);
      expect(await group(path, reader), path).toBe(shared.get(path));
    }
    // A line in their cart, written by any instance: another shop page once the events are read, shared with
    // a reader with the same cart and no other; the fundraiser shows no cart.
    const line = { productId: 1, variantId: null, quantity: 1 };
    await saveCart(reader.id, [line]);
    await readSessionEvents();
    const withCart = await group("/shop", reader);
    expect(withCart).toMatch(/^access /);
    expect(withCart).not.toBe(shared.get("/shop"));
    expect(await group("/shop/product/1", reader)).not.toBe(shared.get("/shop/product/1"));
    expect(await group("/fundraiser", reader)).toBe(shared.get("/fundraiser"));
    expect(await group("/shop", other)).toBe(shared.get("/shop"));
    await saveCart(other.id, [line]);
    await readSessionEvents();
    expect(await group("/shop", other)).toBe(withCart);
    await saveCart(other.id, [{ ...line, quantity: 2 }]);
    await readSessionEvents();
    expect(await group("/shop", other)).not.toBe(withCart);
    // Emptied: the shared page again.
    await saveCart(reader.id, []);
    await readSessionEvents();
    expect(await group("/shop", reader)).toBe(shared.get("/shop"));
    // A subscription that ended long ago shows nowhere: the fundraiser stays shared.
    const DAY = 86_400_000;
    const subscription = {
      userId: reader.id,
      provider: "test",
      tierKey: "first_human",
      startedAt: new Date(Date.now() - 90 * DAY),
    } as const;
    await db()
      .insert(subscriptions)
      .values({
        ...subscription,
        providerSubscriptionId: unique("sub_"),
        status: "canceled",
        currentPeriodEnd: new Date(Date.now() - 60 * DAY),
        endedAt: new Date(Date.now() - 60 * DAY),
      });
    await readSessionEvents();
    expect(await group("/fundraiser", reader)).toBe(shared.get("/fundraiser"));
    // A running one: the tier cards are theirs.
    await db()
      .insert(subscriptions)
      .values({
        ...subscription,
        providerSubscriptionId: unique("sub_"),
        status: "active",
        currentPeriodEnd: new Date(Date.now() + 20 * DAY),
      });
    await readSessionEvents();
    expect(await group("/fundraiser", reader)).toBeUndefined();
    expect(await group("/fundraiser", other)).toBe(shared.get("/fundraiser"));
  });
});
