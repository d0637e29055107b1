import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { announcementMails, announcements, auditLog, users } from "#db/schema";
import { sendDueAnnouncementMails } from "~/features/announcements/mail.server";
import { homeAnnouncements, publishAnnouncement } from "~/features/announcements/store.server";
import { action as adminAction, loader as adminLoader } from "~/routes/admin/announcements";
import { loader as homeLoader } from "~/routes/home";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/unsubscribe";
import { post, statusOf } from "../support/actions";
import { capturingMailer } from "../support/capturing-mailer";
import { drivers, openTestDatabase, twoPostgresInstances } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

/** A reader who asked for the author's news (/settings), in `language` when given. */
async function newsReader(prefix = "news", language?: string, database = db()): Promise<TestReader> {
  const reader = await createReader({ prefix });
  await database
    .update(users)
    .set({ emailNews: true, ...(language ? { language } : {}) })
    .where(eq(users.id, reader.id));
  return reader;
}

const key = () =>
  unique("k")
    .replace(/[^A-Za-z0-9_-]/g, "")
    .padEnd(24, "x")
    .slice(0, 60);

/**
 * The author's announcements (ADR 95): published from the admin (audited, once per form), shown on the home
 * page, e-mailed once to each reader who asked for news, in their language, with an unsubscribe link.
 */
describe.each(drivers)("announcements on %s", (driver) => {
  let handle: DatabaseHandle;
  let author: TestReader;

  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    author = await createReader({ prefix: "announcer" });
    await handle.db.update(users).set({ role: "author" }).where(eq(users.id, author.id));
  });
  afterAll(() => handle.close());

  it("publishes from the admin, once for a form sent twice, audited, shown on the home page, and mailed once each", async () => {
    const english = await newsReader("news-en");
    const french = await newsReader("news-fr", "fr");
    const quiet = await createReader({ prefix: "quiet" });
    const suspended = await newsReader("news-gone");
    await handle.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));

    const form = {
      title: `Volume two ${unique()}`,
      bodyMd: "It begins **next week**.\n\n<script>x</script>",
      key: key(),
    };
    const publish = () =>
      statusOf(() => adminAction({ request: post("/admin/announcements", author, form) } as never));
    const [first, second] = await Promise.all([publish(), publish()]);
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    const rows = await handle.db.select().from(announcements).where(eq(announcements.publishKey, form.key));
    expect(rows).toHaveLength(1);
    const id = rows[0]?.id ?? 0;
    const audits = await handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "announcement.publish"), eq(auditLog.subjectId, String(id))));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.actorId).toBe(author.id);

    const queued = await handle.db
      .select()
      .from(announcementMails)
      .where(eq(announcementMails.announcementId, id));
    const queuedIds = queued.map((row) => row.userId);
    for (const reader of [english, french]) expect(queuedIds).toContain(reader.id);
    for (const reader of [quiet, suspended]) expect(queuedIds).not.toContain(reader.id);

    // The home page shows it, sanitised.
    const home = (await homeLoader({ request: new Request("http://localhost/") } as never)) as {
      news: { title: string; html: string }[];
    };
    expect(home.news[0]?.title).toBe(form.title);
    expect(home.news[0]?.html).toContain("<strong>next week</strong>");
    expect(home.news[0]?.html).not.toContain("<script");

    const outbox = capturingMailer();
    await sendDueAnnouncementMails({ mailer: outbox.mailer, limit: 1_000 });
    await sendDueAnnouncementMails({ mailer: outbox.mailer, limit: 1_000 });
    expect(outbox.to(english.email)).toHaveLength(1);
    expect(outbox.to(french.email)).toHaveLength(1);
    expect(outbox.to(quiet.email)).toHaveLength(0);
    const [mail] = outbox.to(english.email);
    expect(mail?.message.subject).toContain(form.title);
    expect(mail?.message.text).toContain("It begins **next week**.");
    expect(mail?.raw).toMatch(/List-Unsubscribe: <http:\/\/[^>]+\/unsubscribe\/[A-Za-z0-9_-]{43}>/);
    expect(mail?.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    // The reader's language around the author's words.
    expect(outbox.to(french.email)[0]?.message.text).toContain("L'auteur de");

    // The link turns the news e-mails off, and only those.
    const token = /\/unsubscribe\/([A-Za-z0-9_-]{43})/.exec(mail?.message.text ?? "")?.[1] ?? "";
    await handle.db.update(users).set({ emailNewChapters: true }).where(eq(users.id, english.id));
    const page = (await unsubscribeLoader({ params: { token } } as never)) as { list?: string };
    expect(page.list).toBe("news");
    await unsubscribeAction({
      request: post(`/unsubscribe/${token}`, undefined, {}),
      params: { token },
    } as never);
    const [after] = await handle.db
      .select({ news: users.emailNews, chapters: users.emailNewChapters })
      .from(users)
      .where(eq(users.id, english.id));
    expect(after).toEqual({ news: false, chapters: true });
  });

  it("refuses a bad form with its messages, publishing nothing; deletes, audited, and the unsent e-mails go with it", async () => {
    const refused = await statusOf(() =>
      adminAction({
        request: post("/admin/announcements", author, { title: "x".repeat(121), bodyMd: "", key: "bad" }),
      } as never),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      errors: {
        title: "admin.announcements.errors.title",
        bodyMd: "admin.announcements.errors.body",
        key: "admin.announcements.errors.key",
      },
    });
    // Nobody else: a reader gets the admin's 404.
    const reader = await newsReader("news-del");
    expect(
      (
        await statusOf(() =>
          adminLoader({
            request: new Request("http://localhost/admin/announcements", {
              headers: { cookie: reader.cookie },
            }),
          } as never),
        )
      ).status,
    ).toBe(404);

    const published = await publishAnnouncement(
      { title: "To delete", bodyMd: "Soon gone.", key: key() },
      { via: "admin", userId: author.id },
    );
    expect(published.queued).toBeGreaterThan(0);
    const deleted = await statusOf(() =>
      adminAction({
        request: post("/admin/announcements", author, { intent: "delete", id: String(published.id) }),
      } as never),
    );
    expect(deleted.location).toBe("/admin/announcements?deleted=1");
    expect(
      await handle.db
        .select()
        .from(announcementMails)
        .where(eq(announcementMails.announcementId, published.id)),
    ).toEqual([]);
    expect((await homeAnnouncements()).map((item) => item.title)).not.toContain("To delete");
    const [audit] = await handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "announcement.delete"), eq(auditLog.subjectId, String(published.id))));
    expect(audit?.before).toMatchObject({ title: "To delete" });
    const again = await statusOf(() =>
      adminAction({
        request: post("/admin/announcements", author, { intent: "delete", id: String(published.id) }),
      } as never),
    );
    expect(again.status).toBe(404);
  });

  it("shows the newest three of the last 30 days on the home page", async () => {
    const now = new Date();
    const old = await publishAnnouncement(
      { title: "Old news", bodyMd: "Long ago.", key: key() },
      { via: "admin", userId: author.id },
    );
    await handle.db
      .update(announcements)
      .set({ publishedAt: new Date(now.getTime() - 31 * 86_400_000) })
      .where(eq(announcements.id, old.id));
    for (const n of [1, 2, 3, 4])
      await publishAnnouncement(
        { title: `Fresh ${n}`, bodyMd: "New.", key: key() },
        { via: "admin", userId: author.id },
      );
    expect((await homeAnnouncements(now)).map((item) => item.title)).toEqual([
      "Fresh 4",
      "Fresh 3",
      "Fresh 2",
    ]);
  });
});

/** Two app instances on one PostgreSQL, each publishing the same form and sending at once: one e-mail each. */
describe.skipIf(!drivers.includes("postgres"))("announcements on two postgres instances", () => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ first, second, close } = await twoPostgresInstances());
  });
  afterAll(() => close());

  it("delivers exactly one message per opted-in reader when two publishers and four workers race", async () => {
    const author = await createReader({ prefix: "racer" });
    const readers = await Promise.all(Array.from({ length: 30 }, (_, n) => newsReader(`race${n}`)));
    const input = { title: "Racing news", bodyMd: "Once each.", key: key() };
    const actor = { via: "admin", userId: author.id } as const;
    const outcomes = await Promise.all([
      publishAnnouncement(input, actor, first.db),
      publishAnnouncement(input, actor, second.db),
      publishAnnouncement(input, actor, first.db),
    ]);
    expect(outcomes.filter((outcome) => !outcome.again)).toHaveLength(1);
    expect(new Set(outcomes.map((outcome) => outcome.id)).size).toBe(1);
    const outbox = capturingMailer();
    for (let round = 0; round < 4; round++)
      await Promise.all(
        [first, second].flatMap((instance) =>
          [1, 2].map(() =>
            sendDueAnnouncementMails({ mailer: outbox.mailer, limit: 7, database: instance.db }),
          ),
        ),
      );
    for (const reader of readers) expect(outbox.to(reader.email), reader.email).toHaveLength(1);
    expect(outbox.sent).toHaveLength(readers.length);
    const rows = await first.db.select().from(announcementMails);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });
});
