import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { loader as settingsLoader } from "~/routes/settings";
import { action as discordAction } from "~/routes/settings-discord";
import { loader as callbackLoader } from "~/routes/settings-discord-callback";
import { discordUser, startFakeDiscord } from "../discord/fake-discord";
import { approve } from "../oauth/fake-provider";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantMembership, type TestReader } from "../support/factories";

const origin = "http://app.test";
process.env.APP_ORIGIN = origin;
const discord = await startFakeDiscord({ redirectUri: `${origin}/settings/discord/callback` });
Object.assign(process.env, discord.env());
afterAll(() => discord.close());

// The route functions take more than the tests give (context, params): what they read is given.
type Args = Parameters<typeof callbackLoader>[0];
const args = (request: Request) => ({ request, params: {}, context: {} }) as unknown as Args;

const callback = (reader: TestReader, query: string, state = "") =>
  new Request(`${origin}/settings/discord/callback?${query}`, {
    headers: { cookie: `${reader.cookie}; oauth_state=${state}` },
  });

const sectionBack = /^\/settings\?discord=(\w+)#discord$/;

describe.each(drivers)("the /settings Discord routes on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("links through Discord and back, and the settings page shows the link", async () => {
    const reader = await createReader({ prefix: "routes" });
    await grantMembership(reader.id, 30);
    discord.user = discordUser();
    const start = (await discordAction(
      args(post("/settings/discord", reader, { intent: "link" })),
    )) as Response;
    expect(start.status).toBe(302);
    const state = /oauth_state=([^;]+)/.exec(start.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const back = await approve(start.headers.get("location") ?? "");
    const answer = await statusOf(() => callbackLoader(args(callback(reader, back.search.slice(1), state))));
    expect(answer).toMatchObject({ status: 302, location: "/settings?discord=linked#discord" });
    expect([...(discord.members.get(discord.user.id) ?? [])]).toEqual([discord.roles.observer]);

    const page = (await settingsLoader(
      args(new Request(`${origin}/settings?discord=linked`, { headers: { cookie: reader.cookie } })) as never,
    )) as { discord: { outcome?: string; perk?: { link: { username: string } | null } } };
    expect(page.discord.outcome).toBe("linked");
    expect(page.discord.perk?.link?.username).toBe(discord.user.username);

    const unlinked = await statusOf(() =>
      discordAction(args(post("/settings/discord", reader, { intent: "unlink" }))),
    );
    expect(unlinked).toMatchObject({ status: 302, location: "/settings?discord=unlinked#discord" });
    expect([...(discord.members.get(discord.user.id) ?? [])]).toEqual([]);
  });

  it("sends a signed-out visitor to sign in", async () => {
    const answer = await statusOf(() =>
      callbackLoader(args(new Request(`${origin}/settings/discord/callback?code=a&state=b`))),
    );
    expect(answer.status).toBe(302);
    expect(answer.location).toMatch(/^\/login/);
  });

  it("answers any callback query and any form with the section, never an error (fuzz)", async () => {
    const reader = await createReader({ prefix: "fuzzed" });
    const token = fc.string({ unit: "grapheme-ascii", maxLength: 700 });
    await fc.assert(
      fc.asyncProperty(
        fc.record({ code: token, state: token, error: token, other: token }, { requiredKeys: [] }),
        token,
        async (query, cookieState) => {
          const search = new URLSearchParams(query as Record<string, string>).toString();
          const answer = await statusOf(() => callbackLoader(args(callback(reader, search, cookieState))));
          expect(answer.status).toBe(302);
          expect(answer.location).toMatch(sectionBack);
          expect(sectionBack.exec(answer.location ?? "")?.[1]).not.toBe("linked");
        },
      ),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), token), token),
        async (fields) => {
          const answer = await statusOf(() =>
            discordAction(args(post("/settings/discord", reader, fields as Record<string, string>))),
          );
          // A body that is no form is the client's mistake: 400 (app/lib/forms.ts), never a 500.
          if (typeof fields === "string") return void expect(answer.status).toBe(400);
          expect(answer.status).toBe(302);
          expect(answer.location ?? "").toMatch(
            /^(\/settings\?discord=\w+#discord|http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?)/,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
