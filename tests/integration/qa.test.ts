import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { auditLog, membershipGrants, qaMails, qaQuestions, users } from "#db/schema";
import type { Mailer, MailMessage } from "~/features/mail/mailer.server";
import { askQuestion, saveMonth } from "~/features/qa/commands.server";
import { sendDueQaMails } from "~/features/qa/mail.server";
import { QA_LIMITS } from "~/features/qa/rules";
import { action as adminAction, loader as adminLoader } from "~/routes/admin/qa";
import { action as askAction, loader as qaLoader } from "~/routes/qa/index";
import { loader as monthLoader } from "~/routes/qa/month";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

// Months are counted in the site's time zone: New York, five hours behind UTC in November and December.
process.env.SITE_TIME_ZONE = "America/New_York";

/** The mail edge's test double: messages written by nodemailer as the outbox writes them, and kept. */
function capturingMailer() {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    async send(message) {
      await transport.sendMail({ from: "Site <no-reply@localhost>", ...message });
      sent.push(message);
    },
  };
  return { mailer, sent };
}

const get = (url: string, reader?: TestReader) =>
  new Request(`http://localhost${url}`, { headers: reader ? { cookie: reader.cookie } : {} });

const question = (text = `What does Aurelian keep in the archive? ${unique("q")}`) => ({ question: text });

/**
 * Monthly Q&A (ADR 82): who may ask (Analyst and above, while they hold it), the monthly limit in the site's
 * time zone, the author's answers and publish (audited, once), the e-mails (once per member, per their
 * choice) and who reads a month's answers.
 */
describe.each(drivers)("monthly Q&A on %s", (driver) => {
  let handle: DatabaseHandle;
  let author: TestReader;

  /** A reader holding `days` of membership from `from` (90 days: Analyst; 30: Observer). */
  async function member(days: number, from = new Date(), prefix = "qamember") {
    const reader = await createReader({ prefix });
    if (days) await handle.db.insert(membershipGrants).values({ userId: reader.id, days, grantedAt: from });
    return reader;
  }

  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    author = await createReader({ prefix: "qaauthor" });
    await handle.db.update(users).set({ role: "author" }).where(eq(users.id, author.id));
  });
  afterAll(() => handle.close());

  it("refuses a free or Observer reader with the translated reason, and sends a visitor to sign in", async () => {
    const free = await member(0);
    const observer = await member(30);
    for (const reader of [free, observer]) {
      const refused = await statusOf(() => askAction({ request: post("/qa", reader, question()) } as never));
      expect(refused).toMatchObject({ status: 403, body: { error: "qa.errors.tier" } });
      const page = (await qaLoader({ request: get("/qa", reader) } as never)) as { state: { kind: string } };
      expect(page.state.kind).toBe("refused");
    }
    const visitor = await statusOf(() => askAction({ request: post("/qa", undefined, question()) } as never));
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/login\?redirectTo=%2Fqa/);
    expect(
      await handle.db.select().from(qaQuestions).where(eq(qaQuestions.userId, observer.id)),
    ).toHaveLength(0);
  });

  it("lets an Analyst ask, and names a question too short or too long beside its field", async () => {
    const analyst = await member(90);
    const asked = await statusOf(() =>
      askAction({ request: post("/qa", analyst, { ...question(), anonymous: "on" }) } as never),
    );
    expect(asked).toMatchObject({ status: 302, location: "/qa?asked=1" });
    const page = (await qaLoader({ request: get("/qa?asked=1", analyst) } as never)) as {
      state: { kind: string; left: number; asked: { anonymous: boolean }[] };
    };
    expect(page.state).toMatchObject({ kind: "member", left: QA_LIMITS.perMonth - 1 });
    expect(page.state.asked[0]?.anonymous).toBe(true);
    for (const [text, error] of [
      ["too short", "qa.errors.tooShort"],
      ["x".repeat(QA_LIMITS.questionMax + 1), "qa.errors.tooLong"],
    ] as const) {
      const refused = await statusOf(() =>
        askAction({ request: post("/qa", analyst, { question: text }) } as never),
      );
      expect(refused).toMatchObject({ status: 400, body: { errors: { question: error } } });
    }
  });

  it("answers any form with a 4xx or a redirect, never a 500 (fuzzed)", async () => {
    const analyst = await member(90);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ question: fc.string({ maxLength: 1_200 }), anonymous: fc.string({ maxLength: 5 }) }),
          fc.string({ maxLength: 300 }),
        ),
        async (fields) => {
          const { status } = await statusOf(() =>
            askAction({ request: post("/qa", analyst, fields) } as never),
          );
          expect([302, 400, 409]).toContain(status);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("counts the limit per calendar month of the site's time zone", async () => {
    // 03:00 UTC on 1 December is still 30 November in New York; 05:30 UTC is 1 December there.
    const lateNovember = new Date("2031-12-01T03:00:00Z");
    const earlyDecember = new Date("2031-12-01T05:30:00Z");
    const analyst = await member(90, new Date("2031-11-01T00:00:00Z"));
    const input = { question: "Will the archive ever open again?", anonymous: false };
    for (let i = 0; i < QA_LIMITS.perMonth; i++)
      expect(await askQuestion(analyst.id, input, lateNovember)).toMatchObject({
        ok: true,
        month: "2031-11",
      });
    expect(await askQuestion(analyst.id, input, lateNovember)).toEqual({ ok: false, reason: "limit" });
    expect(await askQuestion(analyst.id, input, earlyDecember)).toMatchObject({
      ok: true,
      month: "2031-12",
      left: QA_LIMITS.perMonth - 1,
    });
    // A reader holds the perk while they hold the tier: once the 90 days are over, asking is refused.
    expect(await askQuestion(analyst.id, input, new Date("2032-02-15T12:00:00Z"))).toEqual({
      ok: false,
      reason: "tier",
    });
  });

  it("lets the author answer some questions, publish the month once (audited), and e-mail each member once", async () => {
    const month = driver === "pglite" ? "2021-03" : "2021-04";
    const asking = await member(90, new Date(`${month}-01T12:00:00Z`), "qaasker");
    const at = new Date(`${month}-15T12:00:00Z`);
    const named = await askQuestion(
      asking.id,
      { question: "Who taught Ilse to read maps?", anonymous: false },
      at,
    );
    const hidden = await askQuestion(
      asking.id,
      { question: "Is the Covenant older than the city?", anonymous: true },
      at,
    );
    const left = await askQuestion(
      asking.id,
      { question: "Will there be a second volume?", anonymous: false },
      at,
    );
    if (!named.ok || !hidden.ok || !left.ok) throw new Error("not asked");

    // Members now: two who keep the choice on, one who turned it off; a free reader and an Observer get none.
    const told = [await member(90), await member(200)];
    const optedOut = await member(90);
    await handle.db.update(users).set({ emailQa: false }).where(eq(users.id, optedOut.id));
    const free = await member(0);
    const observer = await member(30);

    const answer = (id: number, text: string) =>
      statusOf(() =>
        adminAction({
          request: post("/admin/qa", author, { intent: "answer", question: String(id), answer: text }),
        } as never),
      );
    expect(await answer(named.id, "**Her mother**, on the roof.\n<script>alert(1)</script>")).toMatchObject({
      status: 302,
    });
    expect((await answer(hidden.id, "Older by a century.")).status).toBe(302);
    expect((await answer(2_000_000_000, "Nobody asked this.")).status).toBe(404);
    expect((await answer(named.id, "x".repeat(QA_LIMITS.answer + 1))).status).toBe(400);
    // Anyone but an author gets the 404.
    const refused = await statusOf(() =>
      adminAction({
        request: post("/admin/qa", asking, { intent: "answer", question: String(left.id), answer: "Mine!" }),
      } as never),
    );
    expect(refused.status).toBe(404);

    const page = {
      month,
      title: `Q&A ${unique()}`,
      intro: "The archive's questions.",
      visibility: "members",
    };
    // Not published yet: its page is the 404.
    expect(
      (await statusOf(() => monthLoader({ request: get(`/qa/${month}`), params: { month } } as never)))
        .status,
    ).toBe(404);
    const publish = () =>
      statusOf(() =>
        adminAction({ request: post("/admin/qa", author, { ...page, intent: "publish" }) } as never),
      );
    const [first, second] = await Promise.all([publish(), publish()]);
    expect([first?.location, second?.location].sort()).toEqual([
      `/admin/qa?month=${month}&done=already`,
      `/admin/qa?month=${month}&done=published`,
    ]);
    const entries = await handle.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, author.id), eq(auditLog.subjectId, month)));
    expect(entries.filter((entry) => entry.action === "qa.publish")).toHaveLength(1);
    const answers = await handle.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.action, "qa.answer"), eq(auditLog.subjectType, "qaQuestion")));
    expect(answers.length).toBeGreaterThanOrEqual(2);

    const queued = await handle.db
      .select({ userId: qaMails.userId })
      .from(qaMails)
      .where(eq(qaMails.month, month));
    const queuedIds = queued.map((row) => row.userId);
    for (const reader of told) expect(queuedIds).toContain(reader.id);
    for (const reader of [optedOut, free, observer, asking]) expect(queuedIds).not.toContain(reader.id);

    const outbox = capturingMailer();
    await sendDueQaMails({ mailer: outbox.mailer, limit: 1_000 });
    await sendDueQaMails({ mailer: outbox.mailer, limit: 1_000 });
    for (const reader of told) {
      const mails = outbox.sent.filter((mail) => mail.to === reader.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toContain(page.title);
      expect(mails[0]?.text).toContain(`/qa/${month}`);
    }

    // Members-only answers: a free reader and a visitor see the questions and the way to join, not the answers.
    const read = async (reader?: TestReader) =>
      (await monthLoader({ request: get(`/qa/${month}`, reader), params: { month } } as never)) as {
        open: boolean;
        questions: { id: number; asker: string | null; answerHtml: string | null }[];
      };
    for (const reader of [free, undefined]) {
      const locked = await read(reader);
      expect(locked.open).toBe(false);
      expect(locked.questions.map((q) => q.answerHtml)).toEqual([null, null]);
    }
    const open = await read(told[0]);
    expect(open.open).toBe(true);
    // The unanswered question is not shown; the anonymous asker is not named; the answer's HTML is safe.
    expect(open.questions.map((q) => [q.id, q.asker])).toEqual([
      [named.id, asking.username],
      [hidden.id, null],
    ]);
    expect(open.questions[0]?.answerHtml).toContain("<strong>Her mother</strong>");
    expect(open.questions[0]?.answerHtml).not.toContain("<script");

    // For everyone: the author's choice, changed after publishing, sends nothing again.
    await saveMonth(
      month,
      { ...page, intent: "save", visibility: "everyone" },
      { via: "admin", userId: author.id },
    );
    expect((await read(free)).open).toBe(true);
    expect((await sendDueQaMails({ mailer: outbox.mailer })).sent).toBe(0);

    // A published month takes no more questions; the list shows it.
    const list = (await qaLoader({ request: get("/qa") } as never)) as { months: { month: string }[] };
    expect(list.months.map((row) => row.month)).toContain(month);
    const admin = (await adminLoader({ request: get(`/admin/qa?month=${month}`, author) } as never)) as {
      questions: unknown[];
      page: { publishedAt: string | null };
    };
    expect(admin.questions).toHaveLength(3);
    expect(admin.page.publishedAt).not.toBeNull();
  });

  it("answers a malformed month with the 404 and refuses a bad admin form with its message", async () => {
    for (const month of ["2026-13", "26-11", "2026-1", "abcd-ef", "2026-11x"])
      expect(
        (await statusOf(() => monthLoader({ request: get(`/qa/${month}`), params: { month } } as never)))
          .status,
      ).toBe(404);
    const bad = await statusOf(() =>
      adminAction({
        request: post("/admin/qa", author, {
          intent: "save",
          month: "2020-01",
          title: "",
          intro: "",
          visibility: "members",
        }),
      } as never),
    );
    expect(bad).toMatchObject({ status: 400, body: { errors: { title: "admin.qa.errors.titleRequired" } } });
    const future = await statusOf(() =>
      adminAction({
        request: post("/admin/qa", author, {
          intent: "publish",
          month: "2099-01",
          title: "Later",
          intro: "",
          visibility: "members",
        }),
      } as never),
    );
    expect(future.status).toBe(400);
  });
});

/** 50 asks at once by one Analyst, on PostgreSQL's pool, where the transactions truly run together. */
describe.skipIf(!drivers.includes("postgres"))("the monthly limit under concurrency on postgres", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("keeps exactly the limit of 50 concurrent asks, whatever their order", async () => {
    const reader = await createReader({ prefix: "qarace" });
    const now = new Date("2031-06-15T12:00:00Z");
    await handle.db
      .insert(membershipGrants)
      .values({ userId: reader.id, days: 90, grantedAt: new Date("2031-06-01T00:00:00Z") });
    const input = { question: "Which door did the archivist lock last?", anonymous: false };
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => askQuestion(reader.id, input, now)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(QA_LIMITS.perMonth);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "limit")).toHaveLength(
      50 - QA_LIMITS.perMonth,
    );
    const kept = await handle.db.select().from(qaQuestions).where(eq(qaQuestions.userId, reader.id));
    expect(kept).toHaveLength(QA_LIMITS.perMonth);
  });
});
