import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { discordLinks, membershipGrants } from "#db/schema";
import { discordConfig } from "~/features/discord/config.server";
import { completeLink, startLink } from "~/features/discord/link.server";
import { reconcileRoles, syncReader } from "~/features/discord/sync.server";
import { discordUser, startFakeDiscord } from "../discord/fake-discord";
import { approve } from "../oauth/fake-provider";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantMembership } from "../support/factories";

const origin = "http://app.test";
process.env.APP_ORIGIN = origin;
const discord = await startFakeDiscord({ redirectUri: `${origin}/settings/discord/callback` });
Object.assign(process.env, discord.env());
afterAll(() => discord.close());

/**
 * The Discord role's writes at the same moment on PostgreSQL (a real pool: the statements truly run at once;
 * PGlite runs one at a time): links claimed with SKIP LOCKED and a lease, requests consumed once.
 */
describe.skipIf(!drivers.includes("postgres"))("the Discord role at once on postgres", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  const config = () => {
    const value = discordConfig();
    if (!value) throw new Error("unconfigured");
    return value;
  };

  it("lets one of two callbacks with the same state link, once", async () => {
    const reader = await createReader({ prefix: "twice" });
    await grantMembership(reader.id, 30);
    discord.user = discordUser();
    const back = await approve(await startLink(config(), reader.id));
    const input = {
      code: back.searchParams.get("code") ?? "",
      state: back.searchParams.get("state") ?? "",
      browserState: back.searchParams.get("state") ?? "",
    };
    const outcomes = await Promise.all([completeLink(reader.id, input), completeLink(reader.id, input)]);
    expect(outcomes.sort()).toEqual(["invalid", "linked"]);
    const rows = await handle.db.select().from(discordLinks).where(eq(discordLinks.userId, reader.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ discordUserId: discord.user.id, leaseUntil: null });
  });

  it("links one Discord account to one of two readers racing for it", async () => {
    const user = discordUser();
    const readers = await Promise.all([createReader({ prefix: "racer" }), createReader({ prefix: "racer" })]);
    discord.user = user;
    const backs = await Promise.all(
      readers.map(async (reader) => approve(await startLink(config(), reader.id))),
    );
    const outcomes = await Promise.all(
      readers.map((reader, i) => {
        const back = backs[i] as URL;
        const state = back.searchParams.get("state") ?? "";
        return completeLink(reader.id, {
          code: back.searchParams.get("code") ?? "",
          state,
          browserState: state,
        });
      }),
    );
    expect(outcomes.sort()).toEqual(["linked", "taken"]);
    const rows = await handle.db.select().from(discordLinks).where(eq(discordLinks.discordUserId, user.id));
    expect(rows).toHaveLength(1);
  });

  it("applies each change once when reconcile runs and readers' syncs run at the same moment", async () => {
    const readers = await Promise.all(
      Array.from({ length: 6 }, () => createReader({ prefix: "reconciled" })),
    );
    const users = new Map<number, string>();
    for (const reader of readers) {
      discord.user = discordUser();
      const back = await approve(await startLink(config(), reader.id));
      const state = back.searchParams.get("state") ?? "";
      expect(
        await completeLink(reader.id, {
          code: back.searchParams.get("code") ?? "",
          state,
          browserState: state,
        }),
      ).toBe("linked");
      users.set(reader.id, discord.user.id);
    }
    await handle.db
      .insert(membershipGrants)
      .values(readers.map((r) => ({ userId: r.id, days: 30, grantedAt: new Date() })));
    const before = discord.guildCalls().length;
    await Promise.all([
      reconcileRoles({ limit: 1000 }),
      reconcileRoles({ limit: 1000 }),
      reconcileRoles({ limit: 1000 }),
      ...readers.map((reader) => syncReader(reader.id)),
    ]);
    // Whatever a busy link skipped, one more run catches.
    await reconcileRoles({ limit: 1000 });
    const mine = new Set(users.values());
    const puts = discord
      .guildCalls()
      .slice(before)
      .filter((call) => call.startsWith("PUT") && [...mine].some((id) => call.includes(`/members/${id}/`)));
    expect(puts).toHaveLength(readers.length);
    for (const id of mine) expect([...(discord.members.get(id) ?? [])]).toEqual([discord.roles.observer]);
    const rows = await handle.db
      .select()
      .from(discordLinks)
      .where(
        inArray(
          discordLinks.userId,
          readers.map((r) => r.id),
        ),
      );
    expect(rows.every((row) => row.appliedRoleId === discord.roles.observer && row.leaseUntil === null)).toBe(
      true,
    );
  });
});
