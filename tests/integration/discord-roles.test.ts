import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { discordLinks, membershipGrants } from "#db/schema";
import { MAX_ATTEMPTS, setDiscordWait } from "~/features/discord/api.server";
import { discordConfig } from "~/features/discord/config.server";
import { latestEvent, syncChangedReaders } from "~/features/discord/follow.server";
import { completeLink, startLink, unlink } from "~/features/discord/link.server";
import { getDiscordSection } from "~/features/discord/queries.server";
import { reconcileRoles, syncReader, VERIFY_MS } from "~/features/discord/sync.server";
import { discordUser, startFakeDiscord } from "../discord/fake-discord";
import { approve } from "../oauth/fake-provider";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantMembership, type TestReader } from "../support/factories";

// The configuration is read once, at first use: the stand-in runs and is in the environment before any test.
const origin = "http://app.test";
process.env.APP_ORIGIN = origin;
const discord = await startFakeDiscord({ redirectUri: `${origin}/settings/discord/callback` });
Object.assign(process.env, discord.env());
afterAll(() => discord.close());

/** The waits a rate limit asked for: recorded, never slept. */
const waits: number[] = [];
setDiscordWait(async (ms) => {
  waits.push(ms);
});

const DAY_MS = 24 * 60 * 60_000;
const days = (n: number, from = new Date()) => new Date(from.getTime() + n * DAY_MS);

/** The whole link as the browser makes it: start, approve at Discord, come back with code and state. */
async function link(reader: TestReader, user = discordUser()) {
  const config = discordConfig();
  if (!config) throw new Error("the stand-in is not configured");
  discord.user = user;
  const back = await approve(await startLink(config, reader.id));
  const state = back.searchParams.get("state") ?? "";
  const outcome = await completeLink(reader.id, {
    code: back.searchParams.get("code") ?? undefined,
    state,
    browserState: state,
  });
  return { outcome, user };
}

const rolesOf = (userId: string) => [...(discord.members.get(userId) ?? [])].sort();

describe.each(drivers)("the Discord role on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  const linkOf = async (userId: number) =>
    (await handle.db.select().from(discordLinks).where(eq(discordLinks.userId, userId)))[0];

  it("adds a linking Observer to the guild with the Observer role (PKCE, identify guilds.join)", async () => {
    const reader = await createReader({ prefix: "observer" });
    await grantMembership(reader.id, 30);
    const config = discordConfig();
    if (!config) throw new Error("the stand-in is not configured");
    const url = new URL(await startLink(config, reader.id));
    expect(url.searchParams.get("scope")).toBe("identify guilds.join");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    const { outcome, user } = await link(reader);
    expect(outcome).toBe("linked");
    expect(rolesOf(user.id)).toEqual([discord.roles.observer]);
    expect(await linkOf(reader.id)).toMatchObject({
      discordUserId: user.id,
      inGuild: true,
      appliedRoleId: discord.roles.observer,
      leaseUntil: null,
    });
    expect(await getDiscordSection(reader.id)).toMatchObject({
      perk: { tierHasRole: true, link: { username: user.username, inGuild: true, pending: false } },
    });
  });

  it("adds a free reader to the guild without a role, and gives it when they join a tier", async () => {
    const reader = await createReader({ prefix: "free" });
    const { outcome, user } = await link(reader);
    expect(outcome).toBe("linked");
    expect(rolesOf(user.id)).toEqual([]);
    await grantMembership(reader.id, 30);
    expect(await syncReader(reader.id)).toBe("changed");
    expect(rolesOf(user.id)).toEqual([discord.roles.observer]);
  });

  it("swaps the role on a change of tier and takes it away when the membership days run out", async () => {
    const reader = await createReader({ prefix: "upgrade" });
    await grantMembership(reader.id, 30);
    const { user } = await link(reader);
    await grantMembership(reader.id, 90);
    expect(await syncReader(reader.id)).toBe("changed");
    expect(rolesOf(user.id)).toEqual([discord.roles.analyst]);
    // Nobody looks when 90 days pass: the reconcile job sees the tier fall back, then lapse.
    const later = days(95);
    await reconcileRoles({ now: later, limit: 1000 });
    expect(rolesOf(user.id)).toEqual([discord.roles.observer]);
    await reconcileRoles({ now: days(125), limit: 1000 });
    expect(rolesOf(user.id)).toEqual([]);
    expect((await linkOf(reader.id))?.appliedRoleId).toBeNull();
  });

  it("syncs a linked reader at once when a write changes their tier (the reader event), not others", async () => {
    const reader = await createReader({ prefix: "evented" });
    const bystander = await createReader({ prefix: "bystander" });
    const { user } = await link(reader);
    const position = await latestEvent();
    await grantMembership(reader.id, 30);
    await grantMembership(bystander.id, 30);
    const before = discord.guildCalls().length;
    const next = await syncChangedReaders(position);
    expect(next).toBeGreaterThan(position);
    expect(rolesOf(user.id)).toEqual([discord.roles.observer]);
    expect(discord.guildCalls().slice(before)).toEqual([
      `PUT /guilds/${discord.guildId}/members/${user.id}/roles/${discord.roles.observer}`,
    ]);
    expect(await syncChangedReaders(next)).toBe(next);
  });

  it("fixes drift: a tier revoked behind the site's back, and a role someone took away by hand", async () => {
    const reader = await createReader({ prefix: "drift" });
    await grantMembership(reader.id, 30);
    const { user } = await link(reader);
    await handle.db
      .update(membershipGrants)
      .set({ revokedAt: new Date() })
      .where(eq(membershipGrants.userId, reader.id));
    const before = discord.guildCalls().length;
    const result = await reconcileRoles({ limit: 1000 });
    expect(result.failed).toBe(0);
    expect(rolesOf(user.id)).toEqual([]);
    expect(discord.guildCalls().slice(before)).toContain(
      `DELETE /guilds/${discord.guildId}/members/${user.id}/roles/${discord.roles.observer}`,
    );
    // Nothing to do: a second run asks Discord nothing about this reader.
    const quiet = discord.guildCalls().length;
    await reconcileRoles({ limit: 1000 });
    expect(
      discord
        .guildCalls()
        .slice(quiet)
        .filter((call) => call.includes(user.id)),
    ).toEqual([]);

    // A role taken by hand on Discord: given again once the daily check comes round.
    await grantMembership(reader.id, 30);
    await syncReader(reader.id);
    discord.members.get(user.id)?.clear();
    await reconcileRoles({ now: days(1.5), limit: 1000 });
    expect(rolesOf(user.id)).toEqual([discord.roles.observer]);
    expect(VERIFY_MS).toBeLessThan(1.5 * DAY_MS);
  });

  it("retries a 429 after its retry_after, and leaves what still failed to the reconcile job", async () => {
    const reader = await createReader({ prefix: "limited" });
    const { user } = await link(reader);
    await grantMembership(reader.id, 30);
    waits.length = 0;
    discord.rateLimit(1, 0.25);
    expect(await syncReader(reader.id)).toBe("changed");
    expect(waits).toEqual([250]);
    expect(rolesOf(user.id)).toEqual([discord.roles.observer]);

    await grantMembership(reader.id, 90);
    discord.rateLimit(MAX_ATTEMPTS, 0.5);
    expect(await syncReader(reader.id)).toBe("failed");
    expect(waits).toEqual([250, 500, 500]);
    expect(await linkOf(reader.id)).toMatchObject({
      leaseUntil: null,
      lastError: expect.stringContaining("rate limited"),
    });
    expect(rolesOf(user.id)).toEqual([discord.roles.observer]);
    await reconcileRoles({ limit: 1000 });
    expect(rolesOf(user.id)).toEqual([discord.roles.analyst]);
    expect((await linkOf(reader.id))?.lastError).toBeNull();
  });

  it("refuses a state that is not the reader's, a used state and a Discord account another reader linked", async () => {
    const config = discordConfig();
    if (!config) throw new Error("unconfigured");
    const owner = await createReader({ prefix: "owner" });
    const other = await createReader({ prefix: "other" });
    const back = await approve(await startLink(config, owner.id));
    const state = back.searchParams.get("state") ?? "";
    const code = back.searchParams.get("code") ?? "";
    expect(await completeLink(other.id, { code, state, browserState: state })).toBe("invalid");
    // The attempt is spent by the refusal: its owner cannot use it after.
    expect(await completeLink(owner.id, { code, state, browserState: state })).toBe("invalid");
    const back2 = await approve(await startLink(config, owner.id));
    const state2 = back2.searchParams.get("state") ?? "";
    expect(
      await completeLink(owner.id, {
        code: back2.searchParams.get("code") ?? "",
        state: state2,
        browserState: "x",
      }),
    ).toBe("invalid");

    const { user } = await link(owner);
    expect((await link(other, user)).outcome).toBe("taken");
    expect(await linkOf(other.id)).toBeUndefined();
  });

  it("takes the role back on unlink, and a new account replaces the old one", async () => {
    const reader = await createReader({ prefix: "unlink" });
    await grantMembership(reader.id, 30);
    const first = await link(reader);
    const second = await link(reader);
    expect(rolesOf(first.user.id)).toEqual([]);
    expect(rolesOf(second.user.id)).toEqual([discord.roles.observer]);
    expect(await unlink(reader.id)).toBe("done");
    expect(rolesOf(second.user.id)).toEqual([]);
    expect(await linkOf(reader.id)).toBeUndefined();
    expect(await unlink(reader.id)).toBe("notLinked");
  });

  it("gives the role to a reader already in the guild (Discord keeps a member's roles on the join call)", async () => {
    const reader = await createReader({ prefix: "member" });
    await grantMembership(reader.id, 90);
    const user = discordUser();
    discord.members.set(user.id, new Set());
    expect((await link(reader, user)).outcome).toBe("linked");
    expect(rolesOf(user.id)).toEqual([discord.roles.analyst]);
    expect((await linkOf(reader.id))?.inGuild).toBe(true);
  });
});
