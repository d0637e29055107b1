import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { getSiteSettings } from "~/features/site/queries.server";
import type { RequestContext } from "~/lib/context";
import { logger } from "~/lib/logger.server";
import { action, loader } from "~/routes/shop/inquire";
import { drivers, openTestDatabase } from "../support/database";
import { mailsTo } from "../support/mail";
import { unique } from "../support/unique";

/**
 * The Inquire form's action (ADR 26) against a real database and the outbox mailer: what reaches the author
 * and the sender, what each refusal answers, and that a refusal sends nothing.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-inquiry-"));
process.env.DATA_DIR = dataDir;
const outbox = path.join(dataDir, "outbox");
const outboxCount = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0);

const COMMISSION = "6";
const PRICED = "1";

let requests = 0;
/** A context from its own address unless told, whose after-response tasks the test runs. */
function contextFrom(ip = `203.0.113.${++requests % 250}`) {
  const tasks: (() => Promise<unknown>)[] = [];
  const context = {
    requestId: `req-${unique()}`,
    ip,
    afterResponse: (task: () => Promise<unknown>) => tasks.push(task),
  } as Partial<RequestContext> as RequestContext;
  return { context, runTasks: () => Promise.all(tasks.map((task) => task())) };
}

const request = (id: string, fields?: Record<string, string>, language = "en") =>
  new Request(`http://localhost/shop/product/${id}/inquire`, {
    method: fields ? "POST" : "GET",
    headers: { Cookie: `lang=${language}` },
    body: fields ? new URLSearchParams(fields) : undefined,
  });

async function send(
  fields: Record<string, string>,
  { id = COMMISSION, ip = undefined as string | undefined, language = "en" } = {},
) {
  const { context, runTasks } = contextFrom(ip);
  const result = await action({ request: request(id, fields, language), params: { id }, context } as never);
  await runTasks();
  return answer(result);
}

/** What the sender sees: status, location and body, whether the action answered a Response or data(). */
async function answer(result: unknown) {
  if (result instanceof Response)
    return {
      status: result.status,
      location: result.headers.get("location"),
      headers: result.headers,
      body: undefined,
    };
  const { data, init } = result as { data: unknown; init?: ResponseInit };
  return {
    status: init?.status ?? 200,
    location: null,
    headers: new Headers(init?.headers),
    body: data as Record<string, unknown>,
  };
}

const thrownStatus = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: { init?: ResponseInit }) => error.init?.status,
  );

const inquiry = (email = `${unique("sender")}@example.com`) => ({
  name: "Ilse Marrow",
  email,
  message: "Could you draw Aurelian on the archive roof, at night, for my wall?",
});

describe.each(drivers)("the Inquire form on %s", (driver) => {
  let handle: DatabaseHandle;
  let author: string;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    author = (await getSiteSettings()).email;
  });
  afterAll(() => handle.close());

  it("mails the author with Reply-To the sender, sends the sender a copy in the page's language, then says sent", async () => {
    const fields = inquiry();
    const before = mailsTo(dataDir, author).length;
    const answered = await send(fields, { language: "fr" });
    expect(answered).toMatchObject({ status: 302, location: `/shop/product/${COMMISSION}/inquire?sent=1` });

    const toAuthor = mailsTo(dataDir, author).slice(before);
    expect(toAuthor).toHaveLength(1);
    expect(toAuthor[0]).toContain(`Reply-To: ${fields.email}`);
    expect(toAuthor[0]).toContain("Subject: Inquiry about Custom Commission from Ilse Marrow");
    expect(toAuthor[0]).toContain(fields.message);

    // Only the copy is To: the sender (the author's message names them in Reply-To:).
    const copies = mailsTo(dataDir, fields.email).filter((mail) => mail.includes(`\nTo: ${fields.email}`));
    expect(copies).toHaveLength(1);
    expect(copies[0]).not.toContain("Reply-To:");
    expect(copies[0]).toContain("Bonjour Ilse Marrow");
    expect(copies[0]).toContain(fields.message);
  });

  it("logs the inquiry without its message or the sender's address", async () => {
    const info = vi.spyOn(logger, "info");
    const fields = inquiry();
    await send(fields);
    const lines = JSON.stringify(info.mock.calls);
    expect(lines).toContain("inquiry.sent");
    expect(lines).toContain('"senderDomain":"example.com"');
    expect(lines).not.toContain(fields.email);
    expect(lines).not.toContain(fields.message.slice(0, 20));
  });

  it("refuses a bad form with 400, a message beside each field and the text given back, and sends nothing", async () => {
    const before = outboxCount();
    const sent = { name: "", email: "not an address", message: "Too short." };
    const answered = await send(sent);
    expect(answered.status).toBe(400);
    expect(answered.body).toEqual({
      errors: {
        name: "inquiry.errors.nameRequired",
        email: "validation.email",
        message: "inquiry.errors.messageTooShort",
      },
      values: sent,
    });
    const long = await send({ ...inquiry(), message: "m".repeat(50_000) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ values: { message: "m".repeat(4_000) } });
    expect(outboxCount()).toBe(before);
  });

  it("refuses the 6th inquiry an hour from one address with 429 and Retry-After, and sends nothing", async () => {
    const ip = `198.51.100.${++requests % 250}`;
    for (let i = 0; i < 5; i++) expect((await send(inquiry(), { ip })).status).toBe(302);
    const before = outboxCount();
    const fields = inquiry();
    const refused = await send(fields, { ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ formError: "inquiry.throttled", values: fields });
    expect(outboxCount()).toBe(before);
  });

  it("refuses the 4th inquiry an hour from one sender, from any client and in any case, with 429", async () => {
    const email = `${unique("Repeat")}@Example.com`;
    for (let i = 0; i < 3; i++) expect((await send(inquiry(email))).status).toBe(302);
    const before = outboxCount();
    const refused = await send(inquiry(email.toLowerCase()));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ formError: "inquiry.throttled" });
    expect(outboxCount()).toBe(before);
  });

  it("answers a mail server failure with 503 and a message to try again, giving the text back", async () => {
    const error = vi.spyOn(logger, "error");
    // The outbox mailer cannot write where a file stands in for its folder: a refusing mail server.
    const moved = `${outbox}-moved`;
    fs.renameSync(outbox, moved);
    fs.writeFileSync(outbox, "");
    try {
      const fields = inquiry();
      const answered = await send(fields);
      expect(answered.status).toBe(503);
      expect(answered.body).toEqual({ formError: "inquiry.sendFailed", values: fields });
      expect(JSON.stringify(error.mock.calls)).toContain("inquiry.failed");
      expect(JSON.stringify(error.mock.calls)).not.toContain(fields.email);
    } finally {
      fs.rmSync(outbox);
      fs.renameSync(moved, outbox);
    }
  });

  it("is a 404 for a product with a price, one that does not exist, and a bad id, on GET and POST", async () => {
    const before = outboxCount();
    for (const id of [PRICED, "999999", "abc", "-1", "6.5"]) {
      expect(await thrownStatus(loader({ request: request(id), params: { id } } as never))).toBe(404);
      const { context } = contextFrom();
      const post = action({ request: request(id, inquiry()), params: { id }, context } as never);
      expect(await thrownStatus(post)).toBe(404);
    }
    expect(outboxCount()).toBe(before);
  });

  it("answers any fields and any id with a page or a 4xx, never an error (fuzz)", async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 2_100 }),
      fc.emailAddress(),
      fc.constantFrom("", "\u0000", "a@b.c\r\nBcc: x@y.z", "%00", "m".repeat(20)),
    );
    const fields = fc.record({ name: text, email: text, message: text }, { requiredKeys: [] });
    const id = fc.oneof(fc.constantFrom(COMMISSION, PRICED, "0", "-1", "2147483648", "%00"), fc.string());
    await fc.assert(
      fc.asyncProperty(fields, id, async (values, productId) => {
        const { context } = contextFrom();
        const status = await action({
          request: request("6", values),
          params: { id: productId },
          context,
        } as never).then(
          async (result) => (await answer(result)).status,
          (error: { init?: ResponseInit }) => error.init?.status,
        );
        expect([302, 400, 404, 429]).toContain(status);
      }),
      { numRuns: 60 },
    );
  });

  it("shows the product and, after a send, the confirmation", async () => {
    const page = await loader({ request: request(COMMISSION), params: { id: COMMISSION } } as never);
    expect(page).toMatchObject({ product: { id: 6, name: "Custom Commission" }, sent: false });
    const sent = await loader({
      request: new Request(`http://localhost/shop/product/6/inquire?sent=1`),
      params: { id: COMMISSION },
    } as never);
    expect(sent).toMatchObject({ sent: true });
  });
});
