import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { desc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { auditLog, inquiries, users } from "#db/schema";
import { INQUIRY_PAGE_SIZE, setInquiryStatus } from "~/features/inquiries/store.server";
import type { RequestContext } from "~/lib/context";
import { action as adminAction, loader as adminLoader } from "~/routes/admin/inquiries";
import { action as inquire } from "~/routes/shop/inquire";
import { loader as productPage } from "~/routes/shop/product";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

/**
 * Inquiries kept for the author (ADR 59): what the Inquire form keeps, the admin's list (newest first, a page
 * at a time, by status, an author's only), marking one answered (audited, once however many authors click),
 * and the commission's page saying what its button does.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-inquiry-admin-"));
process.env.DATA_DIR = dataDir;
const outbox = path.join(dataDir, "outbox");

let requests = 0;
async function send(fields: Record<string, string>, language = "en") {
  const tasks: (() => Promise<unknown>)[] = [];
  const context = {
    requestId: `req-${unique()}`,
    ip: `192.0.2.${++requests % 250}`,
    afterResponse: (task: () => Promise<unknown>) => tasks.push(task),
  } as Partial<RequestContext> as RequestContext;
  const request = new Request("http://localhost/shop/product/6/inquire", {
    method: "POST",
    headers: { Cookie: `lang=${language}` },
    body: new URLSearchParams(fields),
  });
  const result = await inquire({ request, params: { id: "6" }, context } as never);
  await Promise.all(tasks.map((task) => task()));
  return result instanceof Response
    ? result.status
    : ((result as { init?: ResponseInit }).init?.status ?? 200);
}

const inquiry = (message = `Could you draw Aurelian on the archive roof? ${unique("m")}`) => ({
  name: "Ilse Marrow",
  email: `${unique("sender")}@example.com`,
  message,
});

const admin = (reader: TestReader | undefined, query = "", form?: Record<string, string>) => {
  const request = new Request(`http://localhost/admin/inquiries${query}`, {
    method: form ? "POST" : "GET",
    headers: reader ? { Cookie: reader.cookie } : {},
    body: form ? new URLSearchParams(form) : undefined,
  });
  return form ? adminAction({ request, params: {} } as never) : adminLoader({ request, params: {} } as never);
};

type Listed = Awaited<ReturnType<typeof adminLoader>>;
const list = async (reader: TestReader, query = "") => (await admin(reader, query)) as Listed;

const statusOf = (result: unknown) =>
  result instanceof Response ? result.status : ((result as { init?: ResponseInit }).init?.status ?? 200);
const thrownStatus = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: { status?: number; init?: ResponseInit }) => error.status ?? error.init?.status,
  );

describe.each(drivers)("inquiries in the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  let author: TestReader;
  let otherAuthor: TestReader;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    author = await createReader({ prefix: "inqauthor" });
    otherAuthor = await createReader({ prefix: "inqauthor2" });
    for (const id of [author.id, otherAuthor.id])
      await handle.db.update(users).set({ role: "author" }).where(eq(users.id, id));
  });
  afterAll(() => handle.close());

  /** The newest kept inquiry with this message. */
  const kept = async (message: string) =>
    (await handle.db.select().from(inquiries).where(eq(inquiries.message, message)))[0];

  it("keeps a sent inquiry as new, with the sender's words as given; a refused or failed send keeps nothing", async () => {
    const fields = inquiry("<script>alert('x')</script>\nA second line, and **no** markdown.");
    expect(await send(fields, "fr")).toBe(302);
    expect(await kept(fields.message)).toMatchObject({
      productId: 6,
      productName: "Custom Commission",
      name: fields.name,
      email: fields.email,
      language: "fr",
      status: "new",
      answeredAt: null,
    });

    const before = await handle.db.select({ n: sql<number>`count(*)::int` }).from(inquiries);
    expect(await send({ ...inquiry(), message: "too short" })).toBe(400);
    // A refusing mail server (a file where its folder should be): the sender is asked to send it again.
    const moved = `${outbox}-moved`;
    fs.renameSync(outbox, moved);
    fs.writeFileSync(outbox, "");
    try {
      expect(await send(inquiry())).toBe(503);
    } finally {
      fs.rmSync(outbox);
      fs.renameSync(moved, outbox);
    }
    expect(await handle.db.select({ n: sql<number>`count(*)::int` }).from(inquiries)).toEqual(before);
  });

  it("lists them for an author, newest first, 25 a page, all or by status; anyone else gets the 404", async () => {
    const messages = Array.from(
      { length: INQUIRY_PAGE_SIZE + 3 },
      (_, i) => `Inquiry number ${i} ${unique()}`,
    );
    for (const message of messages)
      await handle.db
        .insert(inquiries)
        .values({ ...inquiry(message), productId: 6, productName: "Custom Commission", language: "en" });
    const first = await list(author);
    expect(first.inquiries).toHaveLength(INQUIRY_PAGE_SIZE);
    expect(first.inquiries.map((row) => row.message)).toEqual(
      messages.toReversed().slice(0, INQUIRY_PAGE_SIZE),
    );
    expect(first.next).toBeDefined();
    const second = await list(author, `?before=${first.next}`);
    expect(second.inquiries.map((row) => row.message).slice(0, 3)).toEqual(messages.slice(0, 3).toReversed());

    await setInquiryStatus(first.inquiries[0]?.id ?? 0, "answered", { via: "admin", userId: author.id });
    expect((await list(author, "?view=answered")).inquiries.map((row) => row.message)).toContain(
      messages.at(-1),
    );
    expect((await list(author, "?view=new")).inquiries.map((row) => row.message)).not.toContain(
      messages.at(-1),
    );
    // A URL is never an error: an unknown view is all, a bad page mark the first page.
    expect((await list(author, "?view=%00&before=abc")).inquiries).toHaveLength(INQUIRY_PAGE_SIZE);

    const reader = await createReader({ prefix: "inqreader" });
    for (const who of [reader, undefined]) {
      expect(await thrownStatus(admin(who))).toBe(404);
      expect(
        await thrownStatus(admin(who, "", { inquiry: String(first.inquiries[1]?.id), status: "answered" })),
      ).toBe(404);
    }
    expect((await kept(messages.at(-2) ?? ""))?.status).toBe("new");
  });

  it("an author marks one answered and back: each change audited with the author; the same mark twice changes nothing", async () => {
    const fields = inquiry();
    await send(fields);
    const row = await kept(fields.message);
    const id = String(row?.id);
    const answered = await admin(author, "", { inquiry: id, status: "answered" });
    expect(answered).toBeInstanceOf(Response);
    expect((answered as Response).headers.get("location")).toBe("/admin/inquiries?done=answered");
    expect(await kept(fields.message)).toMatchObject({ status: "answered", answeredAt: expect.any(Date) });
    await admin(author, "", { inquiry: id, status: "answered" });
    await admin(author, "", { inquiry: id, status: "new" });
    expect(await kept(fields.message)).toMatchObject({ status: "new", answeredAt: null });

    const entries = await handle.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, id))
      .orderBy(desc(auditLog.id));
    expect(entries.filter((entry) => entry.subjectType === "inquiry")).toMatchObject([
      {
        action: "inquiry.reopened",
        actorId: author.id,
        before: { status: "answered" },
        after: { status: "new" },
      },
      {
        action: "inquiry.answered",
        actorId: author.id,
        before: { status: "new" },
        after: { status: "answered" },
      },
    ]);
  });

  it("refuses a malformed change with 400 and an unknown inquiry with 404, changing nothing", async () => {
    expect(statusOf(await admin(author, "", { inquiry: "abc", status: "answered" }))).toBe(400);
    expect(statusOf(await admin(author, "", { inquiry: "1", status: "deleted" }))).toBe(400);
    expect(statusOf(await admin(author, "", { inquiry: "2147483647", status: "answered" }))).toBe(404);
  });

  it("answers any form with a redirect or a 4xx, never an error (fuzz)", async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom("", "0", "-1", "1", "2147483648", "1e3", "answered", "new", "%00", "\u0000"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({ inquiry: value, status: value, extra: value }, { requiredKeys: [] }),
        async (form) => {
          expect([302, 400, 404]).toContain(statusOf(await admin(author, "", form)));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("two authors marking the same inquiry at once make one change and one audit entry", async () => {
    const fields = inquiry();
    await send(fields);
    const id = (await kept(fields.message))?.id ?? 0;
    const outcomes = await Promise.all(
      [author, otherAuthor, author, otherAuthor].map((who) =>
        setInquiryStatus(id, "answered", { via: "admin", userId: who.id }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok && outcome.changed)).toHaveLength(1);
    const entries = await handle.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(id)));
    expect(entries.filter((entry) => entry.action === "inquiry.answered")).toHaveLength(1);
  });

  it("the commission's page says its button sends an inquiry, and promises no order or reservation", async () => {
    const page = await productPage({
      request: new Request("http://localhost/shop/product/6"),
      params: { id: "6" },
    } as never);
    expect(page.html).not.toMatch(/reserves a slot|Ordering here/);
    expect(page.html).toContain("send an inquiry");
    expect(page.author).toBeTruthy();
  });
});
