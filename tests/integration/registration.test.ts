import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { chapters, coinLedger, passwordResetTokens, users } from "#db/schema";
import { authenticate, changeEmail, createAccount } from "~/features/auth/commands.server";
import { lookUpSessionToken } from "~/features/auth/session.server";
import { ledgerBalance } from "~/features/coins/ledger.server";
import { postComment } from "~/features/comments/commands.server";
import type { RequestContext } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { loader as rootLoader } from "~/root";
import { action as confirmAction } from "~/routes/auth/confirm-email";
import { action as forgotAction } from "~/routes/auth/forgot-password";
import { action as registerAction } from "~/routes/auth/register";
import { drivers, openTestDatabase } from "../support/database";
import { createChapter } from "../support/factories";
import { mailsTo as allMailsTo } from "../support/mail";
import { unique } from "../support/unique";

/**
 * Registration signs the new reader in and goes on to /welcome (ADR 56); the address is confirmed with the
 * welcome e-mail's link, sent after the answer. Reset requests still answer the same whether or not the
 * e-mail has an account (ADR 16).
 */
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock("~/features/auth/password.server", async (importOriginal) => {
  const { countingCalls } = await import("../support/counting");
  const original = await importOriginal<typeof import("~/features/auth/password.server")>();
  return countingCalls(original, "hashPassword", hashes);
});

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-registration-"));
process.env.DATA_DIR = dataDir;
const outbox = path.join(dataDir, "outbox");
const outboxFiles = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).sort() : []);
const mailsTo = (to: string) => allMailsTo(dataDir, to);

let requests = 0;
/** A context whose after-response tasks are kept, to run when the test says the answer has gone. */
function contextWithTasks(ip = `198.51.100.${++requests % 250}`) {
  const tasks: (() => Promise<unknown>)[] = [];
  const context = {
    requestId: `req-${unique()}`,
    ip,
    afterResponse: (task: () => Promise<unknown>) => tasks.push(task),
  } as Partial<RequestContext> as RequestContext;
  return { context, tasks };
}

const post = (route: string, fields: Record<string, string>, cookie = "") =>
  new Request(`http://localhost${route}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: cookie ? { cookie } : {},
  });

/** What the requester sees: the action's value, or a Response's status, location, cookies and body. */
async function answer(result: unknown) {
  if (result instanceof Response)
    return {
      status: result.status,
      location: result.headers.get("location"),
      cookies: result.headers.getSetCookie(),
      body: await result.text(),
    };
  if (result && typeof result === "object" && "data" in result && "init" in result) {
    const init = (result as { init?: { status?: number; headers?: Record<string, string> } }).init;
    return { status: init?.status, headers: init?.headers, body: (result as { data: unknown }).data };
  }
  return { status: 200, body: result };
}

const form = (email: string, username = `reg${unique()}`) => ({
  username,
  email,
  password: "blood moon rising",
  confirmPassword: "blood moon rising",
  acceptTerms: "on",
});

/** Sends the registration form from a browser with no session; what it answers and its after-response tasks. */
async function register(fields: Record<string, string>, ip?: string) {
  const { context, tasks } = contextWithTasks(ip);
  const result = await answer(await registerAction({ request: post("/register", fields), context } as never));
  return { ...result, tasks };
}

/** The session cookie's `name=value` from a registration's answer. */
const sessionOf = (cookies: string[] = []) =>
  cookies.find((c) => c.startsWith("session="))?.split(";")[0] ?? "";

const tokenIn = (mail: string | undefined) => /\/confirm-email\?token=([\w-]+)/.exec(mail ?? "")?.[1] ?? "";

async function confirm(token: string) {
  const { context } = contextWithTasks();
  return answer(
    await confirmAction({ request: post("/confirm-email", { intent: "confirm", token }), context } as never),
  );
}

async function accountOf(email: string) {
  const [row] = await db().select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no account for ${email}`);
  return row;
}

describe.each(drivers)("registration and reset requests on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("signs a new reader in and goes to /welcome: one hash, the welcome coins once, the confirming e-mail after the answer", async () => {
    const email = `newcomer${unique()}@example.com`;
    hashes.count = 0;
    const filesBefore = outboxFiles().length;
    const registered = await register(form(email));
    expect(registered).toMatchObject({ status: 302, location: "/welcome" });
    expect(hashes.count).toBe(1);
    // The answer carries a session of the new account: the reader is signed in.
    const session = sessionOf(registered.cookies);
    const signedIn = await lookUpSessionToken(session.slice("session=".length));
    const account = await accountOf(email);
    expect(signedIn).toMatchObject({ id: account.id, email, emailConfirmed: false });
    expect(await authenticate(email, "blood moon rising")).toEqual({ id: account.id, suspended: false });
    // Three welcome coins, booked once.
    expect(await ledgerBalance(handle.db, account.id)).toBe(3);
    const welcomes = await db()
      .select()
      .from(coinLedger)
      .where(and(eq(coinLedger.userId, account.id), eq(coinLedger.reason, "welcome")));
    expect(welcomes).toHaveLength(1);
    // The e-mail waits for the answer to have gone.
    expect(outboxFiles().length).toBe(filesBefore);
    expect(registered.tasks).toHaveLength(1);
    await registered.tasks[0]?.();
    const [welcome] = mailsTo(email);
    expect(welcome).toContain("Subject: Welcome to");
    expect(welcome).toContain("/confirm-email?token=");
    expect(account.emailConfirmedAt).toBeNull();

    // Sending the same form again changes nothing: the address has its account, the coins stay three.
    const again = await register(form(email));
    expect(again.status).toBe(400);
    expect(await ledgerBalance(handle.db, account.id)).toBe(3);
  });

  it("confirms the address once with the e-mailed link; a newer e-mail voids the older link", async () => {
    const email = `confirm${unique()}@example.com`;
    const registered = await register(form(email));
    await registered.tasks[0]?.();
    const first = tokenIn(mailsTo(email)[0]);
    const session = sessionOf(registered.cookies);

    // The banner's page sends a new e-mail; the first link no longer confirms.
    const { context, tasks } = contextWithTasks();
    const resent = await answer(
      await confirmAction({
        request: post("/confirm-email", { intent: "resend" }, session),
        context,
      } as never),
    );
    expect(resent).toEqual({ status: 200, body: { done: "sent" } });
    await tasks[0]?.();
    const second = tokenIn(mailsTo(email).find((mail) => mail.includes("Subject: Confirm your")));
    expect(second).not.toBe("");
    expect(second).not.toBe(first);
    expect(await confirm(first)).toMatchObject({ status: 400, body: { formError: "auth.confirm.invalid" } });
    expect((await accountOf(email)).emailConfirmedAt).toBeNull();

    expect(await confirm(second)).toEqual({ status: 200, body: { done: "confirmed" } });
    const confirmed = await accountOf(email);
    expect(confirmed.emailConfirmedAt).toBeInstanceOf(Date);
    expect(confirmed.emailConfirmationHash).toBeNull();
    expect(await lookUpSessionToken(session.slice("session=".length))).toMatchObject({
      emailConfirmed: true,
    });
    // Used once: the link does nothing more.
    expect(await confirm(second)).toMatchObject({ status: 400 });
    // A confirmed account is sent no more confirmation e-mails.
    const late = contextWithTasks();
    const after = await answer(
      await confirmAction({
        request: post("/confirm-email", { intent: "resend" }, session),
        context: late.context,
      } as never),
    );
    expect(after).toEqual({ status: 200, body: { done: "confirmed" } });
    expect(late.tasks).toHaveLength(0);
  });

  it("shows the banner until the address is confirmed (never on a shared chapter page), and holds comments back", async () => {
    const email = `banner${unique()}@example.com`;
    const registered = await register(form(email));
    await registered.tasks[0]?.();
    const session = sessionOf(registered.cookies);
    const root = async (page = "/toc") => {
      const request = new Request(`http://localhost${page}`, { headers: { cookie: session } });
      return (await rootLoader({ request, params: {}, context: { documentRequest: false } } as never)) as {
        unconfirmedEmail?: string;
      };
    };
    expect((await root()).unconfirmedEmail).toContain("Please confirm your e-mail address");
    expect((await root("/chapter/1/comments")).unconfirmedEmail).toContain("Please confirm");
    // Not on a chapter's reading page, which signed-in readers share as one kept page (ADR 49).
    expect((await root("/chapter/1")).unconfirmedEmail).toBeUndefined();
    const account = await accountOf(email);
    const chapter = await createChapter();
    const [row] = await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, chapter));
    const comment = { body: "First!", spoiler: false };
    expect(await postComment({ id: account.id }, row?.id ?? 0, comment)).toEqual({
      ok: false,
      reason: "unconfirmed",
    });

    await confirm(tokenIn(mailsTo(email)[0]));
    expect((await root()).unconfirmedEmail).toBeUndefined();
    expect(await postComment({ id: account.id }, row?.id ?? 0, comment)).toMatchObject({ ok: true });
  });

  it("makes a changed address unconfirmed again and mails its link to the new address", async () => {
    const email = `mover${unique()}@example.com`;
    const registered = await register(form(email));
    await registered.tasks[0]?.();
    await confirm(tokenIn(mailsTo(email)[0]));
    const { id } = await accountOf(email);
    const moved = `moved${unique()}@example.com`;
    await changeEmail(id, moved, "blood moon rising", { language: "en", site: "Crimson Covenant" });
    expect((await accountOf(moved)).emailConfirmedAt).toBeNull();
    const link = await vi.waitFor(() => {
      const token = tokenIn(mailsTo(moved).find((mail) => mail.includes("Subject: Confirm your")));
      if (!token) throw new Error("no confirmation e-mail yet");
      return token;
    });
    expect(await confirm(link)).toEqual({ status: 200, body: { done: "confirmed" } });
    expect((await accountOf(moved)).emailConfirmedAt).toBeInstanceOf(Date);
  });

  it("refuses any other confirmation form with a 4xx and a message, never an error (fuzz)", async () => {
    const field = fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom("confirm", "resend", ""));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom("intent", "token", "other"), field), async (fields) => {
        const { context } = contextWithTasks();
        const result = await answer(
          await confirmAction({ request: post("/confirm-email", fields), context } as never),
        );
        // No session and no token that was ever sent: refused, with a message, every time.
        expect(result.status).toBeGreaterThanOrEqual(400);
        expect(result.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  it("tells an address that has an account so, with no hash, no session and nothing changed", async () => {
    const ownerEmail = `owner${unique()}@example.com`;
    const ownerId = await createAccount({
      username: `owner${unique()}`,
      email: ownerEmail,
      password: "owner's own",
    });
    hashes.count = 0;
    const filesBefore = outboxFiles().length;
    const taken = await register(form(ownerEmail.toUpperCase()));
    expect(taken).toMatchObject({
      status: 400,
      body: { errors: { email: "validation.emailTaken" }, values: { email: ownerEmail.toUpperCase() } },
    });
    expect(taken.tasks).toHaveLength(0);
    expect(hashes.count).toBe(0);
    expect(outboxFiles().length).toBe(filesBefore);
    expect(await authenticate(ownerEmail, "owner's own")).toEqual({ id: ownerId, suspended: false });
    expect(await authenticate(ownerEmail, "blood moon rising")).toBeUndefined();
  });

  it("counts every attempt, a taken address too, against the IP's sign-up limit", async () => {
    const ip = `203.0.113.${1 + (unique().length % 200)}`;
    const limit = getEnv().SIGNUP_LIMIT_PER_HOUR;
    const ownerEmail = `probe${unique()}@example.com`;
    await createAccount({ username: `probe${unique()}`, email: ownerEmail, password: "owner's own" });
    for (let i = 0; i < limit; i++) expect((await register(form(ownerEmail), ip)).status).toBe(400);
    const email = `late${unique()}@example.com`;
    const refused = await register(form(email), ip);
    expect(refused).toMatchObject({ status: 429, body: { formError: "auth.throttled" } });
    expect(Number(refused.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(await db().select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("makes one account when two registrations race for one address", async () => {
    const email = `race${unique()}@example.com`;
    const answers = await Promise.all([register(form(email)), register(form(email))]);
    expect(answers.map((a) => a.status).sort()).toEqual([302, 400]);
    expect(answers.find((a) => a.status === 400)).toMatchObject({
      body: { errors: { email: "validation.emailTaken" } },
    });
    const rows = await db().select().from(users).where(eq(users.email, email));
    expect(rows).toHaveLength(1);
    expect(await ledgerBalance(handle.db, rows[0]?.id ?? 0)).toBe(3);
  });

  it("still refuses a taken username at once (usernames are public)", async () => {
    const username = `Visible${unique()}`;
    await createAccount({ username, email: `${username}@example.com`, password: "secret1" });
    hashes.count = 0;
    const result = await register(form(`other${unique()}@example.com`, username.toLowerCase()));
    expect(result).toMatchObject({ status: 400, body: { errors: { username: "validation.usernameTaken" } } });
    expect(result.tasks).toHaveLength(0);
    expect(hashes.count).toBe(0);
  });

  it("answers a reset request for a known and an unknown e-mail alike, the lookup and e-mail after it", async () => {
    const email = `known${unique()}@example.com`;
    const id = await createAccount({ username: `known${unique()}`, email, password: "secret1" });
    const runs = [];
    for (const address of [email, `unknown${unique()}@example.com`]) {
      const { context, tasks } = contextWithTasks();
      const result = await answer(
        await forgotAction({ request: post("/forgot-password", { email: address }), context } as never),
      );
      expect(tasks).toHaveLength(1);
      runs.push({
        result,
        tokensBefore: (
          await handle.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, id))
        ).length,
        run: tasks[0],
      });
    }
    expect(runs[1]?.result).toEqual(runs[0]?.result);
    expect(runs[0]?.result).toEqual({ status: 200, body: { sent: true } });
    // No token existed before the tasks ran: the answer did not wait for it.
    expect(runs[0]?.tokensBefore).toBe(0);
    for (const run of runs) await run.run?.();
    expect(mailsTo(email)).toHaveLength(1);
    expect(
      await handle.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, id)),
    ).toHaveLength(1);
  });
});
