import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, sessions, signInChallenges, users } from "#db/schema";
import { exportAccountData } from "~/features/account/export.server";
import { lookUpSessionToken } from "~/features/auth/session.server";
import {
  clearFactorsByEmail,
  confirmTotp,
  recoveryCodesLeft,
  startTotp,
  totpCode,
  useRecoveryCode,
  useTotp,
} from "~/features/two-factor/factors.server";
import { verifySchema } from "~/features/two-factor/schemas";
import { action as loginAction } from "~/routes/auth/login";
import { action as verifyAction } from "~/routes/auth/login-verify";
import { statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { waitForMail } from "../support/mail";
import { unique } from "../support/unique";

/**
 * The sign-in's second step (ADR 65): authenticator codes within one step of now and never twice, recovery
 * codes once each, an author's e-mailed code on a new device (ten minutes, five tries, one session), the
 * audit log's lines, and no input that makes a 500.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-two-factor-"));
process.env.DATA_DIR = dataDir;

const context = () =>
  ({
    requestId: `req-${unique()}`,
    ip: `198.51.100.${Math.floor(Math.random() * 250)}`,
    afterResponse: () => {},
  }) as never;

/** The `name=value` pairs of a response's Set-Cookie headers, by name. */
function cookiesOf(response: unknown): Map<string, string> {
  const headers = response instanceof Response ? response.headers : undefined;
  const jar = new Map<string, string>();
  for (const line of headers?.getSetCookie() ?? []) {
    const [pair] = line.split(";");
    const at = pair?.indexOf("=") ?? -1;
    if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return jar;
}

const cookieHeader = (jar: Map<string, string>) =>
  [...jar]
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");

const request = (route: string, fields: Record<string, string>, cookie = "") =>
  new Request(`http://localhost${route}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie && { cookie }) },
    body: new URLSearchParams(fields),
  });

/** Signs in with the password; the answer's redirect and cookies. */
async function logIn(reader: TestReader, cookie = "") {
  const response = await loginAction({
    request: request("/login", { email: reader.email, password: reader.password }, cookie),
    params: {},
    context: context(),
  } as never).catch((thrown: unknown) => thrown);
  if (!(response instanceof Response))
    throw new Error(
      `sign-in answered ${JSON.stringify(response)} ${String((response as { stack?: string }).stack)}`,
    );
  return { location: response.headers.get("location"), cookies: cookiesOf(response) };
}

const verify = (fields: Record<string, string>, cookie: string) =>
  verifyAction({
    request: request("/login/verify", fields, cookie),
    params: {},
    context: context(),
  } as never).catch((thrown: unknown) => thrown);

const auditOf = (userId: number) =>
  db()
    .select({ action: auditLog.action, via: auditLog.via, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, String(userId))))
    .orderBy(auditLog.id);

const codeIn = (mail: string) => /sign-in code: (\d{6})/.exec(mail)?.[1] ?? "";

async function author(prefix: string) {
  const reader = await createReader({ prefix, password: "a long pass" });
  await db().update(users).set({ role: "author" }).where(eq(users.id, reader.id));
  return reader;
}

describe.each(drivers)("the second step on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("accepts an authenticator code one step either side of now, never the same step twice", async () => {
    const reader = await createReader({ prefix: "totp" });
    const { factorId, secret } = await startTotp(reader, "Site");
    const t = Math.floor(Date.now() / 30_000) * 30_000 + 5_000;
    // A code of another time does not confirm the enrolment.
    expect(await confirmTotp(reader.id, factorId, totpCode(secret, t + 300_000), "", t)).toBeUndefined();
    const codes = await confirmTotp(reader.id, factorId, totpCode(secret, t), "Phone", t);
    expect(codes).toHaveLength(10);
    for (const code of codes ?? []) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // The confirming code is used up; the next step's is good now, once.
    expect(await useTotp(reader.id, totpCode(secret, t), t)).toBe(false);
    expect(await useTotp(reader.id, totpCode(secret, t + 30_000), t)).toBe(true);
    expect(await useTotp(reader.id, totpCode(secret, t + 30_000), t)).toBe(false);
    // Two steps ahead is too far; two steps back is too old.
    expect(await useTotp(reader.id, totpCode(secret, t + 90_000), t)).toBe(false);
    expect(await useTotp(reader.id, totpCode(secret, t), t + 60_000)).toBe(false);
    expect(await useTotp(reader.id, totpCode(secret, t + 60_000), t + 60_000)).toBe(true);
    // The same code sent twice at once is accepted once.
    const later = t + 120_000;
    const both = await Promise.all([
      useTotp(reader.id, totpCode(secret, later), later),
      useTotp(reader.id, totpCode(secret, later), later),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect((await auditOf(reader.id)).map((row) => row.action)).toEqual([
      "second-factor.failed",
      "second-factor.enrolled",
      "recovery-codes.created",
    ]);
  });

  it("takes each recovery code once, also when it is sent twice at once", async () => {
    const reader = await createReader({ prefix: "recovery" });
    const { factorId, secret } = await startTotp(reader, "Site");
    const codes = (await confirmTotp(reader.id, factorId, totpCode(secret), "")) ?? [];
    const [first = "", second = ""] = codes.map((code) => code.replace("-", ""));
    expect(await useRecoveryCode(reader.id, first)).toBe(true);
    expect(await useRecoveryCode(reader.id, first)).toBe(false);
    const both = await Promise.all([useRecoveryCode(reader.id, second), useRecoveryCode(reader.id, second)]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await recoveryCodesLeft(reader.id)).toBe(8);
    // Another account's code is no good here.
    const other = await createReader({ prefix: "recovery" });
    expect(await useRecoveryCode(other.id, codes[2]?.replace("-", "") ?? "")).toBe(false);
  });

  it("asks an account with a factor for it at sign-in: the session is made only after, and records how", async () => {
    const reader = await createReader({ prefix: "factor", password: "a long pass" });
    const { factorId, secret } = await startTotp(reader, "Site");
    const codes =
      (await confirmTotp(
        reader.id,
        factorId,
        totpCode(secret, Date.now() - 30_000),
        "",
        Date.now() - 30_000,
      )) ?? [];
    const started = await logIn(reader);
    expect(started.location).toBe("/login/verify");
    expect([...started.cookies.keys()]).toEqual(["sign-in"]);
    const cookie = cookieHeader(started.cookies);
    expect(await statusOf(async () => verify({ intent: "totp", code: "12345" }, cookie))).toMatchObject({
      status: 400,
      body: { errors: { code: "twoFactor.validation.code" } },
    });
    // A recovery code as shown, in capitals: spaces, dashes and case do not matter.
    const answer = await verify({ intent: "recovery", code: ` ${codes[0]?.toUpperCase()} ` }, cookie);
    expect(answer).toBeInstanceOf(Response);
    const signedIn = cookiesOf(answer);
    const user = await lookUpSessionToken(signedIn.get("session") ?? "");
    expect(user?.id).toBe(reader.id);
    const [session] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.id, user?.sessionId ?? 0));
    expect(session?.verifiedBy).toBe("password+recovery-code");
    // The challenge made one session: sent again, it is gone.
    expect(
      await statusOf(async () => verify({ intent: "totp", code: totpCode(secret) }, cookie)),
    ).toMatchObject({
      status: 401,
      body: { formError: "twoFactor.verify.expired" },
    });
    const audit = (await auditOf(reader.id)).map((row) => `${row.via} ${row.action}`);
    expect(audit).toContain("account second-factor.used");
  });

  it("e-mails an author on a new device a code: right once, five tries, ten minutes", async () => {
    const writer = await author("newdevice");
    const first = await logIn(writer);
    expect(first.location).toBe("/login/verify");
    const code = codeIn(await waitForMail(dataDir, writer.email, { containing: "sign-in code" }));
    expect(code).toMatch(/^\d{6}$/);
    const cookie = cookieHeader(first.cookies);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i < 5; i++)
      expect(await statusOf(async () => verify({ intent: "email-code", code: wrong }, cookie))).toMatchObject(
        {
          status: 401,
          body: { formError: "twoFactor.verify.wrong" },
        },
      );
    // The fifth wrong try ends the sign-in: the right code is no good after it.
    expect(await statusOf(async () => verify({ intent: "email-code", code: wrong }, cookie))).toMatchObject({
      status: 401,
      body: { formError: "twoFactor.verify.exhausted" },
    });
    expect(await statusOf(async () => verify({ intent: "email-code", code }, cookie))).toMatchObject({
      status: 401,
    });
    // An authenticator code is not asked of an account without one, nor taken in place of the e-mailed one.
    const seen = new Set<string>();
    await waitForMail(dataDir, writer.email, { containing: "sign-in code", seen });

    // Ten minutes: a challenge past its time is gone.
    const second = await logIn(writer);
    const secondCode = codeIn(
      await waitForMail(dataDir, writer.email, { containing: "sign-in code", newest: true, seen }),
    );
    await db()
      .update(signInChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signInChallenges.userId, writer.id));
    expect(
      await statusOf(async () =>
        verify({ intent: "email-code", code: secondCode }, cookieHeader(second.cookies)),
      ),
    ).toMatchObject({
      status: 401,
      body: { formError: "twoFactor.verify.expired" },
    });

    // The right code, sent twice at once: one session.
    const third = await logIn(writer);
    const thirdCode = codeIn(
      await waitForMail(dataDir, writer.email, { containing: "sign-in code", newest: true, seen }),
    );
    const before = (await db().select().from(sessions).where(eq(sessions.userId, writer.id))).length;
    const answers = await Promise.all([
      verify({ intent: "email-code", code: thirdCode }, cookieHeader(third.cookies)),
      verify({ intent: "email-code", code: thirdCode }, cookieHeader(third.cookies)),
    ]);
    const redirects = answers.filter((answer) => answer instanceof Response && answer.status === 302);
    expect(redirects).toHaveLength(1);
    expect((await db().select().from(sessions).where(eq(sessions.userId, writer.id))).length).toBe(
      before + 1,
    );
    const signedIn = cookiesOf(redirects[0]);
    expect(signedIn.get("device")).toMatch(/^[\w-]{43}$/);

    // That browser is known now: the password alone signs in there, not on another.
    const again = await logIn(writer, `device=${signedIn.get("device")}`);
    expect(again.location).toBe("/account");
    expect(again.cookies.get("session")).toBeTruthy();
    expect((await logIn(writer, `device=${"x".repeat(43)}`)).location).toBe("/login/verify");

    const audit = (await auditOf(writer.id)).map((row) => row.action);
    // Five wrong codes; on one connection the race's loser also finds the sign-in used up, a failed use too.
    expect(audit.filter((action) => action === "second-factor.failed").length).toBeGreaterThanOrEqual(5);
    expect(audit).toContain("second-factor.used");
    expect(audit).toContain("sign-in-code.sent");
  });

  it("signs a reader without a factor in with the password alone, on any device", async () => {
    const reader = await createReader({ prefix: "plain", password: "a long pass" });
    const outcome = await logIn(reader);
    expect(outcome.location).toBe("/account");
    expect(outcome.cookies.get("device")).toMatch(/^[\w-]{43}$/);
  });

  it("answers any text in the second step's form with 400 or 401, never a 500", async () => {
    const writer = await author("fuzz");
    const { cookies } = await logIn(writer);
    const cookie = cookieHeader(cookies);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("totp", "email-code", "recovery", "passkey", "resend", "nonsense"),
        fc.oneof(fc.string({ maxLength: 60 }), fc.string({ minLength: 5000, maxLength: 20_000 })),
        async (intent, code) => {
          const parsed = verifySchema.safeParse({ intent, code, response: code });
          if (parsed.success && "code" in parsed.data)
            expect(parsed.data.code).toMatch(/^(\d{6}|[a-z2-9]{10})$/);
          if (intent === "resend") return;
          const { status } = await statusOf(async () => verify({ intent, code, response: code }, cookie));
          expect([400, 401]).toContain(status);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("exports the factors without their secrets, and the operator can clear them (audited)", async () => {
    const reader = await createReader({ prefix: "export" });
    const { factorId, secret } = await startTotp(reader, "Site");
    await confirmTotp(reader.id, factorId, totpCode(secret), "Phone");
    const data = await exportAccountData(reader.id);
    expect(data.secondFactors).toHaveLength(1);
    expect(data.secondFactors[0]).not.toHaveProperty("totpSecret");
    expect(JSON.stringify(data)).not.toContain(secret);
    expect(data.recoveryCodes).toHaveLength(10);
    expect(data.recoveryCodes[0]).not.toHaveProperty("codeHash");
    expect(await clearFactorsByEmail(reader.email.toUpperCase())).toEqual({ outcome: "cleared", removed: 1 });
    expect(await recoveryCodesLeft(reader.id)).toBe(0);
    expect(await clearFactorsByEmail(reader.email)).toEqual({ outcome: "none", removed: 0 });
    expect((await auditOf(reader.id)).at(-1)).toMatchObject({ via: "cli" });
  });
});
