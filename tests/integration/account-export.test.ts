import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getTableColumns } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { exportedTables } from "~/features/account/export.server";
import { evaluateAchievements } from "~/features/achievements/queries.server";
import { createAccount, requestPasswordReset } from "~/features/auth/commands.server";
import { createSession } from "~/features/auth/session.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import { emptyProgress } from "~/features/reader/progress";
import { saveProgress, saveReadingSettings } from "~/features/reader/queries.server";
import { defaultSettings } from "~/features/reading-settings/settings";
import { loader as dataLoader } from "~/routes/account/data";
import { drivers, openTestDatabase } from "../support/database";
import { unique } from "../support/unique";

// The reset e-mail goes to this data directory's outbox (no SMTP_URL).
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "cc-export-"));

/** A reader who has read, bookmarked, bought coins, unlocked a chapter and asked for a password reset. */
async function activeReader(marker: string) {
  const name = `${marker}${unique()}`;
  const email = `${name}@example.com`;
  const id = await createAccount({ username: name, email, password: "secret1" });
  const cookie = await createSession(id, { remember: true, ip: "203.0.113.9", userAgent: `agent-${name}` });
  await saveReadingSettings(id, { ...defaultSettings, fontSize: 20, fontFamily: "gothic", lineHeight: 2 });
  // Opened ten minutes before the write that brings its reading time (the server counts from its first write).
  await saveProgress(
    id,
    2,
    { ...emptyProgress(), lastReadAt: "2026-11-20T09:50:00.000Z" },
    new Date("2026-11-20T09:50:00.000Z"),
    { timeZone: "Asia/Tokyo", language: "fr" },
  );
  await saveProgress(
    id,
    2,
    {
      scrollPosition: 0.5,
      paragraph: 12,
      completionPercentage: 50,
      readingTime: 321,
      completed: false,
      bookmarks: [3, 9],
      lastReadAt: "2026-11-20T10:00:00.000Z",
    },
    new Date("2026-11-20T10:00:00.000Z"),
    { timeZone: "Asia/Tokyo", language: "fr" },
  );
  await evaluateAchievements(id);
  const { url } = await startCheckout({ id, email }, { kind: "coins", packKey: "coins-5" }, { ip: unique() });
  await answerTestCheckout(url.replace("/pay/test/", ""), "approve");
  expect(await unlockChapter(id, 4)).toMatchObject({ ok: true, charged: true });
  await requestPasswordReset(email, { origin: "http://localhost", language: "en", site: "Crimson Covenant" });
  return { id, name, email, cookie };
}

async function download(cookie: string) {
  const response = (await dataLoader({
    request: new Request("http://localhost/account/data", {
      headers: { cookie: cookie.split(";")[0] ?? "" },
    }),
    params: {},
    context: {},
  } as never)) as Response;
  return { response, text: await response.text() };
}

describe.each(drivers)("the data download on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("holds the reader's progress, bookmarks, settings, unlocks, payments and requests, and nobody else's", async () => {
    const reader = await activeReader("alice");
    const other = await activeReader("bob");
    const { response, text } = await download(reader.cookie);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="my-data-alice\w+\.json"$/,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = JSON.parse(text);

    expect(body).toMatchObject({ format: "crimson-covenant/account-data", version: 1 });
    expect(body.account).toMatchObject({ id: reader.id, username: reader.name, email: reader.email });
    expect(body.readingSettings).toMatchObject({ fontSize: 20, fontFamily: "gothic", lineHeight: 2 });
    expect(body.readingProgress).toEqual([
      expect.objectContaining({
        chapterNumber: 2,
        paragraph: 12,
        bookmarks: [3, 9],
        readingTimeSeconds: 300,
      }),
    ]);
    // 321 seconds claimed at once: a write counts at most 300 (Tokyo's 20 November, 19:00).
    expect(body.readingDays).toEqual([{ day: "2026-11-20", seconds: 300, languages: ["fr"] }]);
    expect(body.achievements).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: "first-bookmark" })]),
    );
    expect(body.chapterUnlocks).toEqual([expect.objectContaining({ chapterNumber: 4, coinsSpent: 1 })]);
    expect(body.payments).toEqual([
      expect.objectContaining({ kind: "coins", status: "paid", coins: 5, coinPackKey: "coins-5" }),
    ]);
    expect(body.paymentEvents).toEqual([
      expect.objectContaining({ type: "checkout.approved", paymentId: body.payments[0].id }),
    ]);
    expect(body.coinLedger.map((entry: { reason: string }) => entry.reason)).toEqual([
      "welcome",
      "purchase",
      "unlock",
    ]);
    expect(body.sessions).toEqual([
      expect.objectContaining({ ip: "203.0.113.9", userAgent: `agent-${reader.name}`, remember: true }),
    ]);
    expect(body.passwordResetRequests).toEqual([expect.objectContaining({ usedAt: null })]);

    // No secrets, and nothing of the other reader.
    expect(text).not.toMatch(/argon2|tokenHash|passwordHash|codeVerifier|stateHash|providerSessionId/);
    expect(text).not.toContain(other.name);
    expect(text).not.toContain(`"userId": ${other.id}`);
    expect(body.payments[0].userId).toBeUndefined();
  });

  it("carries every column of every listed table but the withheld ones", async () => {
    const reader = await activeReader("carol");
    const body = JSON.parse((await download(reader.cookie)).text);
    for (const { table, section, withheld } of exportedTables) {
      const rows = [body[section]].flat().filter(Boolean);
      // Sections with no row for this reader (social sign-ins in progress, subscriptions...) are checked
      // where they have one; the coverage test checks every table is listed.
      for (const row of rows) {
        const expected = Object.keys(getTableColumns(table)).filter((column) => !(column in withheld));
        expect(Object.keys(row), section).toEqual(expect.arrayContaining(expected));
        for (const column of Object.keys(withheld)) expect(row, section).not.toHaveProperty(column);
      }
    }
  });

  it("asks a visitor to sign in", async () => {
    await expect(
      dataLoader({ request: new Request("http://localhost/account/data"), params: {}, context: {} } as never),
    ).rejects.toMatchObject({ status: 302 });
  });
});
