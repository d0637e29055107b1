import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { chapterTranslations, releaseMails, users } from "#db/schema";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import type { Mailer } from "~/features/mail/mailer.server";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "~/features/mail/queue.server";
import { releaseMailBaseline } from "~/features/release-mails/announce.server";
import { newChapterEmailsOn, setNewChapterEmails } from "~/features/release-mails/subscription.server";
import { runReleaseMails } from "~/features/release-mails/worker.server";
import { action as notifyAction } from "~/routes/notify";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/unsubscribe";
import { post, statusOf } from "../support/actions";
import { capturingMailer } from "../support/capturing-mailer";
import { drivers, openTestDatabase, twoPostgresInstances } from "../support/database";
import { createChapter, createReader, grantMembership, type TestReader } from "../support/factories";

/** A translation of chapter `number` in `language`, published now. */
async function translate(number: number, language: "es" | "fr" | "ja", title: string, database = db()) {
  const chapter = (await getChapterCatalog()).byNumber.get(number);
  if (!chapter) throw new Error(`no chapter ${number}`);
  await database.insert(chapterTranslations).values({
    chapterId: chapter.id,
    language,
    title,
    bodyMd: `${title}: its first paragraph.\n\nIts second.`,
    wordCount: 6,
    sourceDigest: "0".repeat(32),
  });
}

const minutes = (base: Date, n: number) => new Date(base.getTime() + n * 60_000);
const tokenOf = (text: string) => /\/unsubscribe\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? "";

async function optedIn(prefix = "notified", language?: string): Promise<TestReader> {
  const reader = await createReader({ prefix });
  await setNewChapterEmails(reader.id, true);
  if (language) await setLanguage(reader.id, language);
  return reader;
}

let setLanguage: (id: number, language: string) => Promise<void>;

describe.each(drivers)("release e-mails on %s", (driver) => {
  let handle: DatabaseHandle;
  let release10: Date;
  const outbox = capturingMailer();
  let reader: TestReader;
  let japanese: TestReader;
  let optedOut: TestReader;

  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    setLanguage = async (id, language) => {
      await db().update(users).set({ language }).where(eq(users.id, id));
    };
    const chapter10 = (await getChapterCatalog()).byNumber.get(10);
    if (!chapter10) throw new Error("the demo has a chapter 10");
    release10 = chapter10.releaseAt;
    // Release e-mails "began" an hour before chapter 10's release.
    await releaseMailBaseline(minutes(release10, -60));
    reader = await optedIn();
    japanese = await optedIn("notified", "ja");
    optedOut = await createReader({ prefix: "quiet" });
  });
  afterAll(() => handle.close());

  const run = (releaseNow: Date, options: { now?: Date; mailer?: Mailer } = {}) =>
    runReleaseMails({ releaseNow, mailer: outbox.mailer, limit: 100, ...options });

  it("mails an opted-in reader exactly once when chapter 10 is released, in their language; none to others", async () => {
    await run(minutes(release10, -1));
    expect(outbox.to(reader.email)).toHaveLength(0);

    await run(minutes(release10, 1));
    await run(minutes(release10, 2));
    await run(minutes(release10, 3));
    const [mail, ...more] = outbox.to(reader.email);
    expect(more).toHaveLength(0);
    expect(mail?.message.subject).toMatch(/^Chapter 10 is out: /);
    expect(mail?.message.text).toContain("http://localhost:3000/chapter/10");
    expect(mail?.raw).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/unsubscribe\/[\w-]{43}>$/m);
    expect(mail?.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(outbox.to(japanese.email).map((m) => m.message.subject)).toEqual([
      expect.stringMatching(/^第10章が公開されました/),
    ]);
    expect(outbox.to(optedOut.email)).toHaveLength(0);
    // The demo's chapters released before the baseline mailed nobody.
    expect(outbox.sent.every((m) => !/Chapter [1-9] is out/.test(m.message.subject))).toBe(true);
  });

  it("gives a paid chapter's invitation to unlock, never its text", async () => {
    const secret = "Vesper-Only-Words in the paid chapter";
    const number = await createChapter({
      coinsRequired: 3,
      releaseAt: minutes(release10, 5),
      body: `${secret}.\n\nMore of it.`,
    });
    await run(minutes(release10, 6));
    const [mail] = outbox.to(reader.email).filter((m) => m.message.subject.includes(`Chapter ${number} `));
    expect(mail?.message.text).toContain("unlock with 3 coins");
    expect(mail?.raw).not.toContain("Vesper-Only-Words");
  });

  it("quotes a free chapter's opening as its reader reads it: no space before punctuation, no heading run into it", async () => {
    const number = await createChapter({
      releaseAt: minutes(release10, 7),
      body: "# Chapter Eleven\n\nIt was *eleven*, then twelve. She followed [a bad link](https://example.com/x).\n\n- bread\n- salt",
    });
    await run(minutes(release10, 8));
    const [mail] = outbox.to(reader.email).filter((m) => m.message.subject.includes(`Chapter ${number} `));
    const excerpt = "It was eleven, then twelve. She followed a bad link. bread salt";
    expect(mail?.message.text).toContain(`\n\n${excerpt}\n\n`);
    expect(mail?.message.html).toContain(`<blockquote>${excerpt}</blockquote>`);
  });

  it("unsubscribes without signing in, from the link's POST only; forged links are refused; the next release sends nothing", async () => {
    const token = tokenOf(outbox.to(reader.email)[0]?.message.text ?? "");
    const path = `/unsubscribe/${token}`;
    const get = await statusOf(() =>
      unsubscribeLoader({ request: new Request(`http://localhost${path}`), params: { token } } as never),
    );
    expect(get).toMatchObject({
      status: 200,
      body: { valid: true, email: expect.stringMatching(/^n…@example\.com$/) },
    });
    // A mail scanner opening the link changes nothing.
    expect(await newChapterEmailsOn(reader.id)).toBe(true);

    const oneClick = await statusOf(() =>
      unsubscribeAction({
        request: post(path, undefined, { "List-Unsubscribe": "One-Click" }),
        params: { token },
      } as never),
    );
    expect(oneClick.status).toBe(200);
    expect(await newChapterEmailsOn(reader.id)).toBe(false);

    // The last character changed (to another: a token ending in "A" once made this one valid), a stranger.
    const changed = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const forged of [changed, "x", token.toUpperCase(), ""]) {
      const refused = await statusOf(() =>
        unsubscribeAction({
          request: post(`/unsubscribe/${forged}`, undefined, {}),
          params: { token: forged },
        } as never),
      );
      expect(refused).toMatchObject({ status: 404, body: { valid: false } });
    }

    const before = outbox.to(reader.email).length;
    const number = await createChapter({ releaseAt: minutes(release10, 10) });
    await run(minutes(release10, 11));
    expect(outbox.to(reader.email)).toHaveLength(before);
    expect(outbox.to(japanese.email).filter((m) => m.message.subject.includes(`第${number}章`))).toHaveLength(
      1,
    );
  });

  it("refuses any made-up token with the translated 404, never an error (fuzz)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "grapheme", maxLength: 80 }),
          fc.string({ minLength: 43, maxLength: 43 }),
          fc.constant("a".repeat(20_000)),
        ),
        async (token) => {
          const loaded = await statusOf(() =>
            unsubscribeLoader({
              request: new Request("http://localhost/unsubscribe/x"),
              params: { token },
            } as never),
          );
          expect(loaded).toMatchObject({ status: 404, body: { valid: false } });
          const posted = await statusOf(() =>
            unsubscribeAction({
              request: post("/unsubscribe/x", undefined, { "List-Unsubscribe": "One-Click" }),
              params: { token },
            } as never),
          );
          expect(posted).toMatchObject({ status: 404, body: { valid: false } });
        },
      ),
      { numRuns: 60 },
    );
  });

  it("retries a failed e-mail later until it is sent, and keeps one that keeps failing as failed", async () => {
    const flaky = await optedIn("flaky");
    const broken = await optedIn("broken");
    const failing = capturingMailer(new Set([flaky.email, broken.email]));
    const number = await createChapter({ releaseAt: minutes(release10, 20) });
    const chapterId = (await getChapterCatalog()).byNumber.get(number)?.id ?? 0;
    const rowOf = async (userId: number) =>
      (
        await handle.db
          .select()
          .from(releaseMails)
          .where(and(eq(releaseMails.userId, userId), eq(releaseMails.chapterId, chapterId)))
      )[0];
    // Ahead of the rows' creation (their first attempt is due when they are queued).
    const t0 = new Date(Date.now() + 60_000);
    await run(minutes(release10, 21), { now: t0, mailer: failing.mailer });
    expect(await rowOf(flaky.id)).toMatchObject({ status: "queued", attempts: 1, lastError: "Error" });
    expect((await rowOf(flaky.id))?.nextAttemptAt.getTime()).toBe(t0.getTime() + (RETRY_DELAYS_MS[0] ?? 0));
    // Not due yet: nothing is tried.
    await run(minutes(release10, 22), { now: new Date(t0.getTime() + 1000), mailer: failing.mailer });
    expect((await rowOf(flaky.id))?.attempts).toBe(1);

    const healed = capturingMailer(new Set([broken.email]));
    let now = t0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      now = new Date(now.getTime() + (RETRY_DELAYS_MS[attempt - 1] ?? 0) + 1);
      await run(minutes(release10, 23), { now, mailer: healed.mailer });
    }
    expect(healed.to(flaky.email)).toHaveLength(1);
    expect(await rowOf(flaky.id)).toMatchObject({ status: "sent", lastError: null });
    const failed = await rowOf(broken.id);
    expect(failed).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, lastError: "Error" });
    await run(minutes(release10, 24), { now: new Date(now.getTime() + 86_400_000), mailer: healed.mailer });
    expect(await rowOf(broken.id)).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
  });

  it("sends a release in the reader's language where its translation is out, to that language's URL", async () => {
    const englishReader = await optedIn();
    const number = await createChapter({ releaseAt: minutes(release10, 20) });
    await translate(number, "ja", "翻訳された章");
    await run(minutes(release10, 21));
    await run(minutes(release10, 22));
    const [mail, ...more] = outbox
      .to(japanese.email)
      .filter((m) => m.message.subject.includes(`第${number}章`));
    expect(more).toHaveLength(0);
    expect(mail?.message.subject).toBe(`第${number}章が公開されました：翻訳された章`);
    expect(mail?.message.text).toContain(`http://localhost:3000/ja/chapter/${number}`);
    expect(mail?.message.text).toContain("翻訳された章: its first paragraph.");
    // The English reader's is the original's.
    const [english] = outbox
      .to(englishReader.email)
      .filter((m) => m.message.subject.includes(`Chapter ${number} `));
    expect(english?.message.text).toContain(`http://localhost:3000/chapter/${number}\n`);
  });

  it("mails a translation published after its chapter's release to that language's readers only, once", async () => {
    const french = await optedIn("notified", "fr");
    const changed = await optedIn("notified", "ja");
    const number = await createChapter({ releaseAt: minutes(release10, 30) });
    await run(minutes(release10, 31));
    const before = outbox.sent.length;
    await translate(number, "ja", "後から来た翻訳");
    // Queued for the Japanese readers; one of them switches to Spanish before it is sent.
    await runReleaseMails({ releaseNow: minutes(release10, 32), mailer: outbox.mailer, limit: 0 });
    await setLanguage(changed.id, "es");
    await run(minutes(release10, 32));
    await run(minutes(release10, 33));
    const told = outbox.sent.slice(before);
    expect(told.map((m) => [m.message.to, m.message.subject])).toEqual([
      [japanese.email, `第${number}章の日本語版が公開されました：後から来た翻訳`],
    ]);
    expect(told[0]?.message.text).toContain(`http://localhost:3000/ja/chapter/${number}`);
    expect(outbox.to(french.email).filter((m) => m.message.subject.includes(`${number}`))).toHaveLength(1);
    const [cancelled] = await handle.db
      .select({ status: releaseMails.status })
      .from(releaseMails)
      .where(and(eq(releaseMails.userId, changed.id), eq(releaseMails.kind, "translation")));
    expect(cancelled?.status).toBe("cancelled");
  });

  it("tells a member whose tier reads ahead when a chapter opens to them, and not again at its release", async () => {
    const member = await optedIn("member");
    await grantMembership(member.id, 180);
    const free = await optedIn("free");
    const number = await createChapter({ releaseAt: minutes(release10, 40) });
    await run(minutes(release10, 30));
    const early = outbox.to(member.email).filter((m) => m.message.subject.includes(`Chapter ${number} `));
    expect(early.map((m) => m.message.subject)).toEqual([
      expect.stringMatching(/^Chapter \d+ is open to you: /),
    ]);
    expect(early[0]?.message.text).toContain("as a First Human member");
    expect(early[0]?.message.text).toContain("The first paragraph.");
    expect(
      outbox.to(free.email).filter((m) => m.message.subject.includes(`Chapter ${number} `)),
    ).toHaveLength(0);

    await run(minutes(release10, 41));
    await run(minutes(release10, 42));
    expect(
      outbox.to(member.email).filter((m) => m.message.subject.includes(`Chapter ${number} `)),
    ).toHaveLength(1);
    expect(
      outbox.to(free.email).filter((m) => m.message.subject.includes(`Chapter ${number} `)),
    ).toHaveLength(1);
  });

  it("turns the e-mails on and off from Notify me, and sends a visitor to sign in and back", async () => {
    const someone = await createReader({ prefix: "button" });
    const on = await statusOf(() =>
      notifyAction({ request: post("/notify", someone, { notify: "on", redirectTo: "/toc" }) } as never),
    );
    expect(on).toMatchObject({ status: 302, location: "/toc" });
    expect(await newChapterEmailsOn(someone.id)).toBe(true);
    await notifyAction({
      request: post("/notify", someone, { notify: "off", redirectTo: "/chapter/10" }),
    } as never);
    expect(await newChapterEmailsOn(someone.id)).toBe(false);
    const visitor = await statusOf(() =>
      notifyAction({
        request: post("/notify", undefined, { notify: "on", redirectTo: "/chapter/10" }),
      } as never),
    );
    expect(visitor).toMatchObject({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent("/chapter/10")}`,
    });
    const offSite = await statusOf(() =>
      notifyAction({
        request: post("/notify", someone, { notify: "on", redirectTo: "//evil.example" }),
      } as never),
    );
    expect(offSite.location).toBe("/toc");
    expect(
      (
        await statusOf(() =>
          notifyAction({ request: post("/notify", someone, { notify: "maybe" }) } as never),
        )
      ).status,
    ).toBe(400);
  });
});

/** Two app instances (two pools) on one PostgreSQL, ticking at once: each reader is mailed once. */
describe.skipIf(!drivers.includes("postgres"))("two instances on postgres", () => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ first, second, close } = await twoPostgresInstances());
  });
  afterAll(() => close());

  it("delivers exactly one message per reader when both announce and send chapter 10 at once", async () => {
    const release10 = (await getChapterCatalog()).byNumber.get(10)?.releaseAt ?? new Date();
    const outbox = capturingMailer();
    await Promise.all([
      releaseMailBaseline(minutes(release10, -60), first.db),
      releaseMailBaseline(minutes(release10, -30), second.db),
    ]);
    const readers = await Promise.all(Array.from({ length: 40 }, () => optedIn("twin")));
    for (let round = 0; round < 6; round++)
      await Promise.all(
        [first, second].flatMap((instance) =>
          [1, 2].map(() =>
            runReleaseMails({
              releaseNow: minutes(release10, 1 + round),
              mailer: outbox.mailer,
              limit: 7,
              database: instance.db,
            }),
          ),
        ),
      );
    for (const reader of readers) expect(outbox.to(reader.email), reader.email).toHaveLength(1);
    expect(outbox.sent).toHaveLength(readers.length);
    const rows = await first.db.select().from(releaseMails);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("delivers a translation's e-mail once per reader of its language when both announce it at once", async () => {
    const release10 = (await getChapterCatalog()).byNumber.get(10)?.releaseAt ?? new Date();
    const outbox = capturingMailer();
    const readers = await Promise.all(Array.from({ length: 20 }, () => optedIn("twin-fr", "fr")));
    await translate(10, "fr", "Le chapitre dix", first.db);
    for (let round = 0; round < 4; round++)
      await Promise.all(
        [first, second].flatMap((instance) =>
          [1, 2].map(() =>
            runReleaseMails({
              releaseNow: minutes(release10, 10 + round),
              mailer: outbox.mailer,
              limit: 7,
              database: instance.db,
            }),
          ),
        ),
      );
    for (const reader of readers)
      expect(
        outbox.to(reader.email).map((m) => m.message.subject),
        reader.email,
      ).toEqual(["Le chapitre 10 est maintenant en français : Le chapitre dix"]);
  });
});
