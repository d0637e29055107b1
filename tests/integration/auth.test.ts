import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { passwordResetTokens, rateLimits, sessions, users } from "#db/schema";
import {
  authenticate,
  changePassword,
  createAccount,
  FieldError,
  isResetTokenValid,
  requestPasswordReset,
  resetPassword,
} from "~/features/auth/commands.server";
import { hashPassword, passwordParams } from "~/features/auth/password.server";
import {
  createSession,
  destroySession,
  getSessionUser,
  revokeSessions,
} from "~/features/auth/session.server";
import {
  assertMayTryPassword,
  assertNotBlocked,
  countWrongPassword,
  forgetWrongPasswords,
  hit,
  rules,
  Throttled,
} from "~/features/auth/throttle.server";
import { ledgerBalance } from "~/features/coins/ledger.server";
import { newRequestScope, REQUEST_SCOPE_HEADER } from "~/lib/request-scope";
import { hashToken } from "~/lib/tokens.server";
import { loader as dataLoader } from "~/routes/account/data";
import { drivers, openTestDatabase } from "../support/database";
import { waitForMail } from "../support/mail";
import { unique } from "../support/unique";

/**
 * Every argon2 verification the app runs, counted: sign-in must run exactly one whether or not the e-mail
 * has an account, so that its time does not tell who is registered. Counting the calls proves that without
 * timing anything (a timing ratio flakes on a busy machine).
 */
const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const { countingCalls } = await import("../support/counting");
  return countingCalls(await importOriginal<typeof import("@node-rs/argon2")>(), "verify", verifications);
});

// E-mail goes to the outbox of this data directory (no SMTP_URL): the tests read it like an operator would.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-auth-"));
process.env.DATA_DIR = dataDir;
const seen = new Set<string>();

/** Waits for the next e-mail in the outbox addressed to `to`. */
const nextOutboxMessage = (to: string) => waitForMail(dataDir, to, { seen });

const requestWith = (cookie: string, path = "/account") =>
  new Request(`http://localhost${path}`, { headers: { cookie: cookie.split(";")[0] ?? "" } });

describe.each(drivers)("accounts on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
  });
  afterAll(() => handle.close());

  it("runs a prepared statement with any parameter as one value, never as SQL", async () => {
    const username = `o'brien${unique()}`;
    await createAccount({ username, email: `obrien${unique()}@example.com`, password: "secret1" });
    const byName = (name: string) =>
      handle.preparedRows("user_by_name", "select username from users where username = $1", [name]);
    expect(await byName(username)).toEqual([[username]]);
    expect(await byName(`${username}'); delete from users; --`)).toEqual([]);
    expect(await byName("x' or '1'='1")).toEqual([]);
    expect(await byName(username)).toEqual([[username]]);
  });

  it("creates an account with 3 welcome coins booked in the ledger", async () => {
    const id = await createAccount({
      username: `ilse${unique()}`,
      email: `ilse${unique()}@example.com`,
      password: "secret1",
    });
    const [user] = await handle.db.select().from(users).where(eq(users.id, id));
    expect(user?.coinBalance).toBe(3);
    expect(await ledgerBalance(handle.db, id)).toBe(3);
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("refuses a taken e-mail or username, whatever their case", async () => {
    const name = `Tamsin${unique()}`;
    const email = `Tamsin${unique()}@Example.com`;
    await createAccount({ username: name, email, password: "secret1" });
    await expect(
      createAccount({ username: `x${unique()}`, email: email.toUpperCase(), password: "secret1" }),
    ).rejects.toMatchObject({
      field: "email",
      messageKey: "validation.emailTaken",
    });
    await expect(
      createAccount({ username: name.toLowerCase(), email: `y${unique()}@example.com`, password: "secret1" }),
    ).rejects.toBeInstanceOf(FieldError);
  });

  it("authenticates by e-mail in any case and rehashes weaker hashes", async () => {
    const email = `aurelian${unique()}@example.com`;
    const id = await createAccount({ username: `aurelian${unique()}`, email, password: "correct horse" });
    expect(await authenticate(email.toUpperCase(), "correct horse")).toEqual({ id, suspended: false });
    expect(await authenticate(email, "wrong horse")).toBeUndefined();
    expect(await authenticate(`nobody${unique()}@example.com`, "correct horse")).toBeUndefined();

    const weak = await hashPassword("correct horse", { memoryCost: 4096, timeCost: 1 });
    await handle.db.update(users).set({ passwordHash: weak }).where(eq(users.id, id));
    expect(await authenticate(email, "correct horse")).toEqual({ id, suspended: false });
    const [after] = await handle.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id));
    expect(after?.hash).toContain(`m=${passwordParams.memoryCost},t=${passwordParams.timeCost},p=1`);
  });

  it("never truncates a long password", async () => {
    const email = `long${unique()}@example.com`;
    const password = "x".repeat(100);
    await createAccount({ username: `long${unique()}`, email, password });
    expect(await authenticate(email, password)).toBeDefined();
    expect(await authenticate(email, "x".repeat(72))).toBeUndefined();
    expect(await authenticate(email, "x".repeat(64))).toBeUndefined();
  });

  it("runs exactly one argon2 verification for an unknown e-mail, a social-only account and a wrong password", async () => {
    const email = `timing${unique()}@example.com`;
    await createAccount({ username: `timing${unique()}`, email, password: "secret1" });
    const social = `social${unique()}@example.com`;
    await createAccount({ username: `social${unique()}`, email: social, password: null });
    const verificationsOf = async (run: () => Promise<unknown>) => {
      verifications.count = 0;
      expect(await run()).toBeUndefined();
      return verifications.count;
    };
    expect(await verificationsOf(() => authenticate(`nobody${unique()}@example.com`, "secret2"))).toBe(1);
    expect(await verificationsOf(() => authenticate(social, "secret2"))).toBe(1);
    expect(await verificationsOf(() => authenticate(email, "secret2"))).toBe(1);
    // The right password is one verification too: the count tells nothing either.
    verifications.count = 0;
    expect(await authenticate(email, "secret1")).toBeDefined();
    expect(verifications.count).toBe(1);
  });

  it("sessions: a token works until logout; logging out revokes it on the server", async () => {
    const id = await createAccount({
      username: `s${unique()}`,
      email: `s${unique()}@example.com`,
      password: "secret1",
    });
    const cookie = await createSession(id, { remember: false });
    expect(cookie).toMatch(/^session=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax$/);
    const token = /^session=([^;]+)/.exec(cookie)?.[1] ?? "";
    const [stored] = await handle.db.select().from(sessions).where(eq(sessions.userId, id));
    expect(stored?.tokenHash).toBe(hashToken(token));
    expect(stored?.tokenHash).not.toContain(token);
    expect((await getSessionUser(requestWith(cookie)))?.id).toBe(id);
    await destroySession(requestWith(cookie));
    expect(await getSessionUser(requestWith(cookie))).toBeUndefined();
  });

  it("a page's loaders, each given its own copy of the request, share one session lookup; a POST's do not", async () => {
    const id = await createAccount({
      username: `q${unique()}`,
      email: `q${unique()}@example.com`,
      password: "secret1",
    });
    const cookie = (await createSession(id, { remember: false })).split(";")[0] ?? "";
    const copy = (scope: string, method = "GET") =>
      new Request("http://localhost/toc", { method, headers: { cookie, [REQUEST_SCOPE_HEADER]: scope } });
    const scope = newRequestScope();
    // As React Router gives the root's loader and the route's: two Request objects of one request.
    const root = getSessionUser(copy(scope));
    expect(getSessionUser(copy(scope))).toBe(root);
    expect((await root)?.id).toBe(id);
    // Another request, and a write's loaders (after an action that may have changed the reader), ask afresh.
    expect(getSessionUser(copy(newRequestScope()))).not.toBe(root);
    expect(getSessionUser(copy(scope, "POST"))).not.toBe(getSessionUser(copy(scope, "POST")));
    // The scope alone never names a reader: another cookie under the same scope is its own lookup.
    const other = await createSession(id, { remember: false });
    const otherRequest = new Request("http://localhost/toc", {
      headers: { cookie: other.split(";")[0] ?? "", [REQUEST_SCOPE_HEADER]: scope },
    });
    expect(getSessionUser(otherRequest)).not.toBe(root);
  });

  it("sessions: Remember me lengthens the cookie; idle and absolute timeouts end a session", async () => {
    const id = await createAccount({
      username: `r${unique()}`,
      email: `r${unique()}@example.com`,
      password: "secret1",
    });
    const remembered = await createSession(id, { remember: true });
    expect(remembered).toMatch(/Max-Age=7776000/);
    const idle = await createSession(id, { remember: false });
    const idleHash = hashToken(/^session=([^;]+)/.exec(idle)?.[1] ?? "");
    await handle.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(sessions.tokenHash, idleHash));
    expect(await getSessionUser(requestWith(idle))).toBeUndefined();
    const old = await createSession(id, { remember: true });
    const oldHash = hashToken(/^session=([^;]+)/.exec(old)?.[1] ?? "");
    await handle.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, oldHash));
    expect(await getSessionUser(requestWith(old))).toBeUndefined();
    expect((await getSessionUser(requestWith(remembered)))?.id).toBe(id);
  });

  it("sign out everywhere and a password change revoke the other sessions", async () => {
    const id = await createAccount({
      username: `e${unique()}`,
      email: `e${unique()}@example.com`,
      password: "secret1",
    });
    const a = await createSession(id, { remember: false });
    const b = await createSession(id, { remember: false });
    const current = await getSessionUser(requestWith(a));
    await changePassword(id, "secret1", "secret2", current?.sessionId ?? -1, {
      language: "en",
      site: "Test",
    });
    expect((await getSessionUser(requestWith(a)))?.id).toBe(id);
    expect(await getSessionUser(requestWith(b))).toBeUndefined();
    await revokeSessions(id);
    expect(await getSessionUser(requestWith(a))).toBeUndefined();
    expect(await authenticate(`nope${unique()}@example.com`, "secret2")).toBeUndefined();
  });

  it("another reader's session reads only its own data", async () => {
    const alice = await createAccount({
      username: `alice${unique()}`,
      email: `alice${unique()}@example.com`,
      password: "secret1",
    });
    const bob = await createAccount({
      username: `bob${unique()}`,
      email: `bob${unique()}@example.com`,
      password: "secret1",
    });
    const bobCookie = await createSession(bob, { remember: false });
    const response = (await dataLoader({
      request: requestWith(bobCookie, "/account/data"),
      params: {},
      context: {},
    } as never)) as Response;
    const body = await response.json();
    expect(body.account.id).toBe(bob);
    expect(JSON.stringify(body)).not.toContain(`"id":${alice}`);
    expect(JSON.stringify(body)).not.toMatch(/argon2|tokenHash|passwordHash/);
  });

  it("throttles the 11th quick failure for one key, with a growing back-off", async () => {
    const key = `login:account-ip:${unique()}@example.com|192.0.2.1`;
    for (let i = 0; i < 10; i++) {
      await assertNotBlocked([key]);
      await hit(key, rules.loginAccountIp);
    }
    await expect(assertNotBlocked([key])).rejects.toBeInstanceOf(Throttled);
    const [first] = await handle.db.select().from(rateLimits).where(eq(rateLimits.key, key));
    const firstBlock = (first?.blockedUntil?.getTime() ?? 0) - Date.now();
    expect(firstBlock).toBeGreaterThan(20_000);
    expect(firstBlock).toBeLessThanOrEqual(30_000);
    await hit(key, rules.loginAccountIp);
    const [second] = await handle.db.select().from(rateLimits).where(eq(rateLimits.key, key));
    expect((second?.blockedUntil?.getTime() ?? 0) - Date.now()).toBeGreaterThan(50_000);
  });

  it("wrong passwords from many addresses never keep the owner out of a fresh one", async () => {
    const email = `owner${unique()}@example.com`;
    const from = (ip: string) => ({ requestId: "test", ip });
    // 25 addresses, one wrong password each: past the account's limit of 20.
    for (let i = 1; i <= 25; i++) {
      await assertMayTryPassword(email, from(`198.51.100.${i}`));
      await countWrongPassword(email, from(`198.51.100.${i}`));
    }
    const [account] = await handle.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `login:account:${email}`));
    expect(account?.blockedUntil?.getTime()).toBeGreaterThan(Date.now());
    // The owner, from an address that has not failed, may try (and in any letter case).
    await expect(assertMayTryPassword(email, from("203.0.113.9"))).resolves.toBeUndefined();
    await expect(assertMayTryPassword(email.toUpperCase(), from("203.0.113.9"))).resolves.toBeUndefined();
    // Every address that guessed is held while the account is under attack, and so is a new one after its
    // first wrong guess.
    for (const ip of ["198.51.100.1", "198.51.100.13", "198.51.100.25"])
      await expect(assertMayTryPassword(email, from(ip))).rejects.toBeInstanceOf(Throttled);
    await assertMayTryPassword(email, from("203.0.113.10"));
    await countWrongPassword(email, from("203.0.113.10"));
    await expect(assertMayTryPassword(email, from("203.0.113.10"))).rejects.toBeInstanceOf(Throttled);
    // Another account is not affected from those addresses.
    await expect(
      assertMayTryPassword(`other${unique()}@example.com`, from("198.51.100.1")),
    ).resolves.toBeUndefined();
  });

  it("one address guessing one account is held after 10, with a doubling block", async () => {
    const email = `guessed${unique()}@example.com`;
    const guesser = { requestId: "test", ip: "192.0.2.77" };
    for (let i = 0; i < 10; i++) {
      await assertMayTryPassword(email, guesser);
      await countWrongPassword(email, guesser);
    }
    await expect(assertMayTryPassword(email, guesser)).rejects.toBeInstanceOf(Throttled);
    const blocked = async () => {
      const [row] = await handle.db
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `login:account-ip:${email}|${guesser.ip}`));
      return (row?.blockedUntil?.getTime() ?? 0) - Date.now();
    };
    const first = await blocked();
    expect(first).toBeGreaterThan(20_000);
    expect(first).toBeLessThanOrEqual(30_000);
    await countWrongPassword(email, guesser);
    expect(await blocked()).toBeGreaterThan(50_000);
    // The owner elsewhere may try; a right password from the guessing address forgets only its own count.
    await expect(
      assertMayTryPassword(email, { requestId: "test", ip: "192.0.2.78" }),
    ).resolves.toBeUndefined();
    await forgetWrongPasswords(email, guesser);
    await expect(assertMayTryPassword(email, guesser)).resolves.toBeUndefined();
  });

  it("password reset: e-mailed link, single use, voided by a newer link, ends every session", async () => {
    const email = `reset${unique()}@example.com`;
    const id = await createAccount({ username: `reset${unique()}`, email, password: "secret1" });
    const session = await createSession(id, { remember: false });
    const request = () =>
      requestPasswordReset(email, { origin: "https://read.example", language: "en", site: "Test" });

    await request();
    const mail = await nextOutboxMessage(email);
    expect(mail).toContain("Subject: Reset your Test password");
    const link = /https:\/\/read\.example\/reset-password\?token=[\w-]+/.exec(mail)?.[0] ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const [row] = await handle.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, id));
    expect(row?.tokenHash).toBe(hashToken(token));
    expect(row?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);

    expect(await isResetTokenValid(token)).toBe(true);
    expect(await isResetTokenValid(token)).toBe(true); // checking does not consume
    expect(await resetPassword(token, "brand new")).toBe(id);
    expect(await resetPassword(token, "again new")).toBeUndefined();
    expect(await getSessionUser(requestWith(session))).toBeUndefined();
    expect(await authenticate(email, "brand new")).toEqual({ id, suspended: false });

    await request();
    const older =
      new URL(/https:\/\/\S+token=[\w-]+/.exec(await nextOutboxMessage(email))?.[0] ?? "").searchParams.get(
        "token",
      ) ?? "";
    await request();
    await nextOutboxMessage(email);
    expect(await isResetTokenValid(older)).toBe(false);
  });

  it("answers an unknown e-mail the same way and sends nothing", async () => {
    await expect(
      requestPasswordReset(`ghost${unique()}@example.com`, {
        origin: "https://read.example",
        language: "en",
        site: "Test",
      }),
    ).resolves.toBeUndefined();
  });
});
