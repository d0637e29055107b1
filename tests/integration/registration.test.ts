import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { passwordResetTokens, users } from "#db/schema";
import { authenticate, createAccount } from "~/features/auth/commands.server";
import { ledgerBalance } from "~/features/coins/ledger.server";
import type { RequestContext } from "~/lib/context";
import { action as forgotAction } from "~/routes/auth/forgot-password";
import { action as registerAction } from "~/routes/auth/register";
import { drivers, openTestDatabase } from "../support/database";
import { mailsTo as allMailsTo } from "../support/mail";
import { unique } from "../support/unique";

/**
 * Registration and reset requests answer the same whether or not the e-mail has an account (ADR 16): the
 * actions do the same work and hand one task to run after the answer; the tasks hash once and mail once.
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
function contextWithTasks() {
  requests++;
  const tasks: (() => Promise<unknown>)[] = [];
  const context = {
    requestId: `req-${unique()}`,
    ip: `198.51.100.${requests % 250}`,
    afterResponse: (task: () => Promise<unknown>) => tasks.push(task),
  } as Partial<RequestContext> as RequestContext;
  return { context, tasks };
}

const post = (route: string, fields: Record<string, string>) =>
  new Request(`http://localhost${route}`, { method: "POST", body: new URLSearchParams(fields) });

/** What the requester sees: the action's value, or a Response's status, location and body. */
async function answer(result: unknown) {
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("location"), body: await result.text() };
  if (result && typeof result === "object" && "data" in result && "init" in result)
    return { status: (result as { init?: { status?: number } }).init?.status, body: result.data };
  return { status: 200, body: result };
}

describe.each(drivers)("registration and reset requests on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("answers a new and a registered e-mail alike: one task after the answer, one hash and one e-mail each", async () => {
    const ownerEmail = `owner${unique()}@example.com`;
    const ownerId = await createAccount({
      username: `owner${unique()}`,
      email: ownerEmail,
      password: "owner's own",
    });
    const newEmail = `newcomer${unique()}@example.com`;
    const form = (email: string) => ({
      username: `reg${unique()}`,
      email,
      password: "blood moon rising",
      confirmPassword: "blood moon rising",
      acceptTerms: "on",
    });

    const runs = [];
    for (const email of [newEmail, ownerEmail.toUpperCase()]) {
      const { context, tasks } = contextWithTasks();
      hashes.count = 0;
      const filesBefore = outboxFiles().length;
      const result = await answer(
        await registerAction({ request: post("/register", form(email)), context } as never),
      );
      // Nothing that depends on the e-mail happened before the answer.
      expect(hashes.count).toBe(0);
      expect(outboxFiles().length).toBe(filesBefore);
      expect(tasks).toHaveLength(1);
      await tasks[0]?.();
      runs.push({ result, hashes: hashes.count, mails: outboxFiles().length - filesBefore });
    }
    const [fresh, taken] = runs;
    expect(fresh?.result).toEqual({ status: 200, body: { sent: true } });
    expect(taken?.result).toEqual(fresh?.result);
    expect(fresh).toMatchObject({ hashes: 1, mails: 1 });
    expect(taken).toMatchObject({ hashes: 1, mails: 1 });

    // The newcomer has an account with the welcome coins, and an e-mail that takes them to sign in.
    const [created] = await handle.db.select().from(users).where(eq(users.email, newEmail));
    expect(created && (await ledgerBalance(handle.db, created.id))).toBe(3);
    expect(await authenticate(newEmail, "blood moon rising")).toEqual({ id: created?.id, suspended: false });
    const [welcome] = mailsTo(newEmail);
    expect(welcome).toContain("Subject: Welcome to");
    expect(welcome).toContain("/login?redirectTo=%2Fwelcome");

    // The owner is told, and nothing of the account changed: no second account, the same password.
    const [notice] = mailsTo(ownerEmail);
    expect(notice).toContain("Subject: Someone tried to create a");
    expect(notice).toContain("/forgot-password");
    expect(await authenticate(ownerEmail, "owner's own")).toEqual({ id: ownerId, suspended: false });
    expect(await authenticate(ownerEmail, "blood moon rising")).toBeUndefined();
  });

  it("still refuses a taken username at once (usernames are public)", async () => {
    const username = `Visible${unique()}`;
    await createAccount({ username, email: `${username}@example.com`, password: "secret1" });
    const { context, tasks } = contextWithTasks();
    const result = await answer(
      await registerAction({
        request: post("/register", {
          username: username.toLowerCase(),
          email: `other${unique()}@example.com`,
          password: "blood moon rising",
          confirmPassword: "blood moon rising",
          acceptTerms: "on",
        }),
        context,
      } as never),
    );
    expect(result).toMatchObject({ status: 400, body: { errors: { username: "validation.usernameTaken" } } });
    expect(tasks).toHaveLength(0);
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
