import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { autoUnlockSettings, oauthIdentities, secondFactors, sessions } from "#db/schema";
import { getLinkedIdentities } from "~/features/account/queries.server";
import { autoUnlockSetting } from "~/features/coins/auto-unlock.server";
import { createFeedToken, hasFeedToken } from "~/features/feeds/private.server";
import { loadSettingsPanels } from "~/features/settings/panels.server";
import { getAccountChoices, listSessions, saveTimeZone } from "~/features/settings/queries.server";
import { listFactors } from "~/features/two-factor/factors.server";
import { hashToken, randomToken } from "~/lib/tokens.server";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

const DAY = 86_400_000;

/** /settings' rows as each list's own query reads them (the one statement must give the same). */
async function oneByOne(user: { id: number; sessionId: number }, now: Date) {
  const [choices, list, linked, feed, factors, autoUnlock] = await Promise.all([
    getAccountChoices(user.id),
    listSessions(user.id, user.sessionId, now),
    getLinkedIdentities(user.id),
    hasFeedToken(user.id),
    listFactors(user.id),
    autoUnlockSetting(user.id),
  ]);
  return { choices, sessions: list, linked, feed, secondFactors: factors.length, autoUnlock };
}

describe.each(drivers)("the rows of /settings in one statement on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("are what each list's own query gives: same rows, order, limits and dates", async () => {
    const reader = await createReader({ prefix: "settings" });
    const [current] = await db()
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, reader.id));
    if (!current) throw new Error("the reader has no session");
    const user = { id: reader.id, sessionId: current.id };
    const now = new Date();
    const empty = await loadSettingsPanels(user, now);
    expect(empty).toEqual(await oneByOne(user, now));
    expect(empty.sessions).toHaveLength(1);
    expect(empty.autoUnlock).toEqual({ enabled: false, dailyCap: 5, confirmed: false });

    // 60 more sessions (past the list's 50): some expired, some idle past their lifetime, some sharing a
    // last-seen time (ordered by id then), one remembered, browsers of every kind.
    const agents = [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1",
      "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36",
      null,
    ];
    await db()
      .insert(sessions)
      .values(
        Array.from({ length: 60 }, (_, index) => ({
          tokenHash: hashToken(randomToken()),
          userId: reader.id,
          remember: index % 5 === 0,
          createdAt: new Date(now.getTime() - (index + 2) * DAY),
          lastSeenAt: new Date(now.getTime() - Math.floor(index / 2) * 3_600_000),
          expiresAt: new Date(now.getTime() + (index % 7 === 0 ? -DAY : 20 * DAY)),
          userAgent: agents[index % 3],
        })),
      );
    await db()
      .insert(oauthIdentities)
      .values([
        { userId: reader.id, provider: "google", subject: `g-${reader.id}`, displayName: "A Reader" },
        { userId: reader.id, provider: "discord", subject: `d-${reader.id}`, username: "reader#1" },
      ]);
    await createFeedToken(reader.id);
    await db()
      .insert(secondFactors)
      .values([
        { userId: reader.id, kind: "totp", label: "Phone", totpSecret: "JBSWY3DPEHPK3PXP", confirmedAt: now },
        {
          userId: reader.id,
          kind: "totp",
          label: "Tablet",
          totpSecret: "JBSWY3DPEHPK3PXP",
          confirmedAt: now,
        },
        { userId: reader.id, kind: "totp", label: "Unconfirmed", totpSecret: "JBSWY3DPEHPK3PXP" },
      ]);
    await db()
      .insert(autoUnlockSettings)
      .values({ userId: reader.id, enabled: true, dailyCap: 12, confirmedAt: now });
    await saveTimeZone(reader.id, "Asia/Tokyo", undefined);

    const full = await loadSettingsPanels(user, now);
    expect(full).toEqual(await oneByOne(user, now));
    expect(full.sessions.length).toBeGreaterThan(30);
    expect(full.sessions.length).toBeLessThanOrEqual(50);
    expect(full.sessions.filter((session) => session.current)).toHaveLength(1);
    expect(full.linked.map((identity) => identity.provider)).toEqual(["discord", "google"]);
    expect(full).toMatchObject({
      feed: true,
      secondFactors: 2,
      autoUnlock: { enabled: true, dailyCap: 12, confirmed: true },
      choices: { timeZone: "Asia/Tokyo", timeZoneFixed: true },
    });
  });

  it("refuses an account that is not there", async () => {
    await expect(loadSettingsPanels({ id: 2_000_000_000, sessionId: 1 })).rejects.toThrow(/no user/);
  });
});
