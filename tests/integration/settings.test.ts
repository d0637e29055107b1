import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { oauthIdentities, readingSettings, sessions, users } from "#db/schema";
import { createSession, lookUpSessionToken } from "~/features/auth/session.server";
import { readerTimeZone } from "~/features/reader/queries.server";
import { unlinkIdentity } from "~/features/settings/queries.server";
import { action, loader } from "~/routes/settings";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

/** /settings: what each form stores, whose sessions it can end, and that no input gives a 500. */
const context = () => ({ requestId: `req-${unique()}`, ip: "203.0.113.9" }) as never;
const submit = (reader: TestReader, fields: Record<string, string> | string) =>
  statusOf(() =>
    action({ request: post("/settings", reader, fields), params: {}, context: context() } as never),
  );
const page = async (reader: TestReader, cookies = "") =>
  (await loader({
    request: new Request("http://localhost/settings", {
      headers: { cookie: [reader.cookie, cookies].filter(Boolean).join("; ") },
    }),
    params: {},
    context: context(),
  } as never)) as Awaited<ReturnType<typeof loader>>;
const account = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0];

describe.each(drivers)("/settings on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("saves reading settings, e-mail choices and a fixed time zone the browser's no longer replaces", async () => {
    const reader = await createReader({ prefix: "prefs" });
    expect(
      await submit(reader, { intent: "reading", fontSize: "20", fontFamily: "dyslexic", lineHeight: "2" }),
    ).toMatchObject({ status: 200, body: { done: "settings.reading.done" } });
    const [saved] = await db().select().from(readingSettings).where(eq(readingSettings.userId, reader.id));
    expect(saved).toMatchObject({ fontSize: 20, fontFamily: "dyslexic", lineHeight: 2, sideBySide: "off" });
    // Side by side with the original (ADR 97): saved with the others, kept when a form leaves it out.
    expect(await submit(reader, { intent: "reading", sideBySide: "on" })).toMatchObject({ status: 200 });
    expect(await submit(reader, { intent: "reading", fontSize: "18" })).toMatchObject({ status: 200 });
    const [sideBySide] = await db()
      .select()
      .from(readingSettings)
      .where(eq(readingSettings.userId, reader.id));
    expect(sideBySide).toMatchObject({ fontSize: 18, fontFamily: "dyslexic", sideBySide: "on" });
    expect(await submit(reader, { intent: "reading", sideBySide: "yes" })).toMatchObject({
      status: 400,
      body: { errors: { reading: "settings.reading.invalid" } },
    });
    expect(
      await submit(reader, { intent: "reading", fontSize: "19", fontFamily: "serif", lineHeight: "2" }),
    ).toMatchObject({ status: 400, body: { errors: { reading: "settings.reading.invalid" } } });

    expect((await page(reader)).emails).toEqual({
      newChapters: false,
      accountNotices: true,
      qaPublished: true,
      // The author's news (ADR 95): off until asked for.
      news: false,
    });
    await submit(reader, { intent: "emailChoices", newChapters: "on" });
    expect((await page(reader)).emails).toEqual({
      newChapters: true,
      accountNotices: false,
      qaPublished: false,
      news: false,
    });
    await submit(reader, { intent: "emailChoices", news: "on" });
    expect((await page(reader)).emails).toMatchObject({ newChapters: false, news: true });

    // The browser's zone (its cookie) is detected; the account follows it until the reader fixes one.
    expect((await page(reader, "tz=America/Denver")).timeZone).toMatchObject({
      current: "UTC",
      fixed: false,
      detected: "America/Denver",
    });
    expect(await submit(reader, { intent: "timeZone", timeZone: "asia/tokyo" })).toMatchObject({
      status: 200,
    });
    expect(await account(reader.id)).toMatchObject({ timeZone: "Asia/Tokyo", timeZoneFixed: true });
    const user = await lookUpSessionToken(reader.cookie.split("=")[1] ?? "");
    expect(user).toMatchObject({ timeZone: "Asia/Tokyo", timeZoneFixed: true });
    expect(await readerTimeZone(user as never, "Europe/Paris")).toBe("Asia/Tokyo");
    expect((await account(reader.id))?.timeZone).toBe("Asia/Tokyo");
    expect(await submit(reader, { intent: "timeZone", timeZone: "Mars/Olympus_Mons" })).toMatchObject({
      status: 400,
      body: { errors: { timeZone: "settings.timeZone.unknown" } },
    });
    // "Automatic" again: the browser's zone, and later moves follow it.
    const automatic = await statusOf(() =>
      action({
        request: new Request("http://localhost/settings", {
          method: "POST",
          headers: { cookie: `${reader.cookie}; tz=Europe/Paris` },
          body: new URLSearchParams({ intent: "timeZone", timeZone: "" }),
        }),
        params: {},
        context: context(),
      } as never),
    );
    expect(automatic.status).toBe(200);
    expect(await account(reader.id)).toMatchObject({ timeZone: "Europe/Paris", timeZoneFixed: false });
  });

  it("lists the reader's own sessions with their devices and ends only theirs", async () => {
    const reader = await createReader({ prefix: "devices" });
    const stranger = await createReader({ prefix: "devices" });
    const phone = (
      await createSession(reader.id, {
        remember: true,
        userAgent:
          "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      })
    ).split(";")[0];
    const listed = (await page(reader)).sessions;
    expect(listed).toHaveLength(2);
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    const other = listed.find((session) => !session.current);
    expect(other?.device).toEqual({ browser: "Chrome", os: "Android", mobile: true });

    // Another reader's session id is "not yours": nothing ends.
    const [strangers] = await db()
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, stranger.id));
    expect(await submit(reader, { intent: "revokeSession", session: String(strangers?.id) })).toMatchObject({
      status: 400,
      body: { errors: { session: "settings.sessions.unknown" } },
    });
    expect(await lookUpSessionToken(stranger.cookie.split("=")[1] ?? "")).toBeDefined();

    expect(await submit(reader, { intent: "revokeSession", session: String(other?.id) })).toMatchObject({
      status: 200,
      body: { done: "settings.sessions.done" },
    });
    expect(await lookUpSessionToken(phone?.split("=")[1] ?? "")).toBeUndefined();
    // Ending the current session signs this browser out.
    const current = listed.find((session) => session.current);
    expect(await submit(reader, { intent: "revokeSession", session: String(current?.id) })).toMatchObject({
      status: 302,
      location: "/",
    });
    expect(await lookUpSessionToken(reader.cookie.split("=")[1] ?? "")).toBeUndefined();
  });

  it("never unlinks the last way to sign in", async () => {
    const reader = await createReader({ prefix: "linked" });
    await db().insert(oauthIdentities).values({ provider: "discord", subject: unique(), userId: reader.id });
    expect(await unlinkIdentity(reader.id, "google")).toBe("notLinked");
    // With a password, the only identity can go.
    expect(await unlinkIdentity(reader.id, "discord")).toBe("unlinked");
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, reader.id));
    await db().insert(oauthIdentities).values({ provider: "discord", subject: unique(), userId: reader.id });
    expect(await unlinkIdentity(reader.id, "discord")).toBe("lastSignIn");
    expect(await submit(reader, { intent: "unlink", provider: "discord" })).toMatchObject({
      status: 400,
      body: { errors: { provider: "settings.linked.lastSignIn" } },
    });
  });

  it("answers any fields with a page, a redirect or a 4xx, never an error (fuzz)", async () => {
    const reader = await createReader({ prefix: "fuzzy" });
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(
        "",
        "\u0000",
        "on",
        "discord",
        "google",
        "Asia/Tokyo",
        "-1",
        "1e309",
        "2147483648",
        "16",
        "off",
      ),
    );
    const intents = fc.constantFrom("reading", "timeZone", "emailChoices", "revokeSession", "unlink", "nope");
    const fields = fc.record(
      {
        intent: intents,
        session: text,
        provider: text,
        timeZone: text,
        fontSize: text,
        fontFamily: text,
        lineHeight: text,
        sideBySide: text,
        newChapters: text,
      },
      { requiredKeys: ["intent"] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fields, fc.string({ maxLength: 500 })), async (values) => {
        const answer = await submit(reader, values as Record<string, string>);
        // Ending the reader's own session (a guessed id) signs them out: keep them signed in for the next run.
        expect([200, 302, 400]).toContain(answer.status);
        // A body that is not a form is refused whole (app/lib/forms.ts readForm); a form's refusal names its field.
        if (typeof values === "string") expect(answer.status).toBe(400);
        else if (answer.status === 400) expect(JSON.stringify(answer.body)).toMatch(/"(settings|account)\./);
      }),
      { numRuns: 120 },
    );
    const after = await account(reader.id);
    expect(
      after?.timeZone === "UTC" || Intl.supportedValuesOf("timeZone").includes(after?.timeZone ?? ""),
    ).toBe(true);
  });
});

describe.runIf(drivers.includes("postgres"))("unlinking under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("of two unlinks at once on a password-less account with two identities, exactly one goes", async () => {
    for (let round = 0; round < 10; round++) {
      const reader = await createReader({ prefix: "racer" });
      await db().update(users).set({ passwordHash: null }).where(eq(users.id, reader.id));
      await db()
        .insert(oauthIdentities)
        .values([
          { provider: "discord", subject: unique(), userId: reader.id },
          { provider: "google", subject: unique(), userId: reader.id },
        ]);
      const outcomes = await Promise.all([
        unlinkIdentity(reader.id, "discord"),
        unlinkIdentity(reader.id, "google"),
      ]);
      expect(outcomes.sort()).toEqual(["lastSignIn", "unlinked"]);
      const left = await db().select().from(oauthIdentities).where(eq(oauthIdentities.userId, reader.id));
      expect(left).toHaveLength(1);
    }
  });
});
