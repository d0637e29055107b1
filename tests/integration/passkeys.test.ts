import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { passkeyEnrolments, signInChallenges } from "#db/schema";
import { lookUpSessionToken } from "~/features/auth/session.server";
import { confirmTotp, listFactors, startTotp, totpCode } from "~/features/two-factor/factors.server";
import { getEnv } from "~/lib/env.server";
import { action as loginAction } from "~/routes/auth/login";
import { action as verifyAction } from "~/routes/auth/login-verify";
import { action as signInOptionsAction } from "~/routes/auth/login-verify-passkey";
import { action as enrolOptionsAction } from "~/routes/settings-passkey";
import { action as securityAction } from "~/routes/settings-security";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { softwarePasskey } from "../support/passkey";
import { tempDir } from "../support/temp";
import { unique } from "../support/unique";

/**
 * Passkeys' endpoints (ADR 65) with a passkey in software: the options given for a sign-in or an enrolment,
 * and the answers taken back. An answer counts once, for its own account's challenge while it is good; any
 * other input (too big, not JSON, wrong types, another account's, expired) is a 4xx with its message.
 */

process.env.DATA_DIR = tempDir("cc-passkeys-");

const context = () =>
  ({
    requestId: `req-${unique()}`,
    ip: `198.51.100.${Math.floor(Math.random() * 250)}`,
    afterResponse: () => {},
  }) as never;

const args = (request: Request) => ({ request, params: {}, context: context() }) as never;

/** `name=value` pairs of an answer's Set-Cookie headers. */
function cookiesOf(response: unknown): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of response instanceof Response ? response.headers.getSetCookie() : []) {
    const [pair = ""] = line.split(";");
    const at = pair.indexOf("=");
    if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return jar;
}

/** The password step of a sign-in: the browser's `sign-in` cookie for its second step. */
async function passwordStep(reader: TestReader): Promise<string> {
  const answer = await loginAction(
    args(post("/login", undefined, { email: reader.email, password: reader.password })),
  ).catch((thrown: unknown) => thrown);
  expect((answer as Response).headers.get("location")).toBe("/login/verify");
  return `sign-in=${cookiesOf(answer).get("sign-in")}`;
}

const asCookie = (cookie: string) => ({ cookie }) as TestReader;

async function signInOptions(cookie: string): Promise<{ challenge: string; allowCredentials?: unknown[] }> {
  const answer = (await signInOptionsAction(
    args(post("/login/verify/passkey", asCookie(cookie), {})),
  )) as Response;
  expect(answer.status).toBe(200);
  return answer.json();
}

async function enrolOptions(reader: TestReader): Promise<{ challenge: string }> {
  const answer = (await enrolOptionsAction(args(post("/settings/security/passkey", reader, {})))) as Response;
  expect(answer.status).toBe(200);
  return answer.json();
}

const verify = (cookie: string, response: string) =>
  statusOf(async () =>
    verifyAction(args(post("/login/verify", asCookie(cookie), { intent: "passkey", response }))),
  );

const enrol = (reader: TestReader, response: string) =>
  statusOf(async () =>
    securityAction(args(post("/settings/security", reader, { intent: "passkey-register", response }))),
  );

const origin = () => getEnv().origin;

/** A reader with a passkey made through the enrolment's endpoints. */
async function withPasskey(prefix: string) {
  const reader = await createReader({ prefix, password: "a long pass" });
  const key = softwarePasskey(origin());
  const { challenge } = await enrolOptions(reader);
  expect(await enrol(reader, JSON.stringify(key.register(challenge)))).toMatchObject({
    status: 200,
    body: { done: "twoFactor.settings.passkeyAdded", recoveryCodes: expect.any(Array) },
  });
  return { reader, key };
}

describe.each(drivers)("passkeys on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("signs in once with a passkey's answer; the same answer again is refused, on that sign-in or a new one", async () => {
    const { reader, key } = await withPasskey("passkey");
    const cookie = await passwordStep(reader);
    const options = await signInOptions(cookie);
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: key.id })]);
    const answer = JSON.stringify(key.sign(options.challenge));
    const signedIn = await verifyAction(
      args(post("/login/verify", asCookie(cookie), { intent: "passkey", response: answer })),
    ).catch((thrown: unknown) => thrown);
    expect((await lookUpSessionToken(cookiesOf(signedIn).get("session") ?? ""))?.id).toBe(reader.id);

    expect(await verify(cookie, answer)).toMatchObject({
      status: 401,
      body: { formError: "twoFactor.verify.expired" },
    });
    const next = await passwordStep(reader);
    await signInOptions(next);
    expect(await verify(next, answer)).toMatchObject({
      status: 401,
      body: { formError: "twoFactor.verify.wrong" },
    });
    // An answer is for the options last given: asked for again, the earlier challenge is gone.
    const earlier = await signInOptions(next);
    const latest = await signInOptions(next);
    expect(await verify(next, JSON.stringify(key.sign(earlier.challenge)))).toMatchObject({ status: 401 });
    const third = await passwordStep(reader);
    const fresh = await signInOptions(third);
    expect(latest.challenge).not.toBe(fresh.challenge);
    expect(await verify(third, JSON.stringify(key.sign(fresh.challenge)))).toMatchObject({ status: 302 });
  });

  it("refuses a sign-in answer from another account's passkey, or for an expired sign-in", async () => {
    const own = await withPasskey("own");
    const other = await withPasskey("other");
    const cookie = await passwordStep(own.reader);
    const { challenge } = await signInOptions(cookie);
    // The other account's passkey signs this very challenge: not one of this account's keys.
    expect(await verify(cookie, JSON.stringify(other.key.sign(challenge)))).toMatchObject({
      status: 401,
      body: { formError: "twoFactor.verify.wrong" },
    });
    const late = await passwordStep(own.reader);
    const options = await signInOptions(late);
    await db()
      .update(signInChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signInChallenges.webauthnChallenge, options.challenge));
    expect(await verify(late, JSON.stringify(own.key.sign(options.challenge)))).toMatchObject({
      status: 401,
      body: { formError: "twoFactor.verify.expired" },
    });
    // Without a sign-in waiting, no options either.
    const none = (await signInOptionsAction(args(post("/login/verify/passkey", undefined, {})))) as Response;
    expect(none.status).toBe(401);
  });

  it("refuses an enrolment for another account's challenge, an expired one, or one used already", async () => {
    const first = await createReader({ prefix: "enrol" });
    const second = await createReader({ prefix: "enrol" });
    const key = softwarePasskey(origin());
    const { challenge } = await enrolOptions(first);
    const made = JSON.stringify(key.register(challenge));
    const refused = { status: 400, body: { formError: "twoFactor.passkeyFailed" } };
    expect(await enrol(second, made)).toMatchObject(refused);
    // The other account's try did not use the challenge up: its own account's answer still counts, once.
    expect(await enrol(first, made)).toMatchObject({ status: 200 });
    expect(await enrol(first, made)).toMatchObject(refused);

    const late = await createReader({ prefix: "enrol" });
    const options = await enrolOptions(late);
    await db()
      .update(passkeyEnrolments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passkeyEnrolments.challenge, options.challenge));
    expect(
      await enrol(late, JSON.stringify(softwarePasskey(origin()).register(options.challenge))),
    ).toMatchObject(refused);
    // Signed out: no enrolment options.
    expect(
      await statusOf(async () => enrolOptionsAction(args(post("/settings/security/passkey", undefined, {})))),
    ).toMatchObject({ status: 401 });
    // A signature made for another site (origin) is not this site's passkey.
    const elsewhere = await enrolOptions(late);
    const phished = softwarePasskey("https://evil.example").register(elsewhere.challenge);
    expect(await enrol(late, JSON.stringify(phished))).toMatchObject(refused);
  });

  it("answers oversized, malformed or mistyped passkey answers with a 4xx and a message, never a 500 (fuzzed)", async () => {
    const { reader, key } = await withPasskey("fuzz");
    const cookie = await passwordStep(reader);
    expect(await enrol(reader, "x".repeat(16_385))).toMatchObject({
      status: 400,
      body: { errors: { response: "twoFactor.validation.passkey" } },
    });
    expect(await enrol(reader, "{not json")).toMatchObject({
      status: 400,
      body: { formError: "twoFactor.passkeyFailed" },
    });
    expect(await verify(cookie, "x".repeat(16_385))).toMatchObject({
      status: 400,
      body: { errors: { response: "twoFactor.validation.passkey" } },
    });
    // Each answer is a real one with one of its parts replaced by anything JSON holds, or any text at all.
    const anything = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 300 }));
    const part = fc.constantFrom(
      "id",
      "rawId",
      "type",
      "response",
      "clientDataJSON",
      "authenticatorData",
      "signature",
      "attestationObject",
    );
    /** The answer with `at` replaced, or undefined when it has no such part. */
    const mangled = (real: { response: object }, at: string, value: unknown) => {
      const copy = structuredClone(real) as Record<string, unknown> & { response: Record<string, unknown> };
      if (at in copy) copy[at] = value;
      else if (at in copy.response) copy.response[at] = value;
      else return undefined;
      return JSON.stringify(copy);
    };
    await fc.assert(
      fc.asyncProperty(part, anything, fc.boolean(), async (at, value, raw) => {
        const text = raw && typeof value === "string" ? value : undefined;
        // A sign-in of its own: five wrong answers end one.
        const signIn = await passwordStep(reader);
        const { challenge } = await signInOptions(signIn);
        const answer = text ?? mangled(key.sign(challenge), at, value);
        if (answer !== undefined) {
          const { status, body } = await verify(signIn, answer);
          // Ten wrong second steps make the account wait (429, with its message).
          expect([400, 401, 429]).toContain(status);
          expect(JSON.stringify(body)).toMatch(/"(twoFactor|auth)\.[\w.]+"/);
        }
        const enrolment = await enrolOptions(reader);
        const made = text ?? mangled(softwarePasskey(origin()).register(enrolment.challenge), at, value);
        if (made !== undefined) {
          const { status, body } = await enrol(reader, made);
          expect(status).toBe(400);
          expect(JSON.stringify(body)).toMatch(/"twoFactor\.[\w.]+"/);
        }
      }),
      { numRuns: 30 },
    );
  });

  it("writes an enrolment whole or not at all: when its recovery codes cannot be written, no factor is added", async () => {
    const reader = await createReader({ prefix: "whole" });
    // The database refuses this account's recovery codes, as a connection lost at that moment would.
    await db().execute(
      sql.raw(`create or replace function refuse_codes() returns trigger language plpgsql as
        $$ begin raise exception 'recovery codes refused'; end $$`),
    );
    await db().execute(
      sql.raw(`create trigger refuse_codes_${reader.id} before insert on recovery_codes for each row
        when (new.user_id = ${reader.id}) execute function refuse_codes()`),
    );
    const key = softwarePasskey(origin());
    const { challenge } = await enrolOptions(reader);
    const made = JSON.stringify(key.register(challenge));
    const { factorId, secret } = await startTotp(reader, "Site");
    const code = totpCode(secret);
    try {
      await expect(enrol(reader, made)).rejects.toThrow(/recovery_codes/);
      await expect(confirmTotp(reader.id, factorId, code, "")).rejects.toThrow(/recovery_codes/);
      expect(await listFactors(reader.id)).toEqual([]);
    } finally {
      await db().execute(sql.raw(`drop trigger refuse_codes_${reader.id} on recovery_codes`));
    }
    // Nothing was used up: the same answer and the same code enrol now, each with the codes to show.
    expect(await enrol(reader, made)).toMatchObject({
      status: 200,
      body: { recoveryCodes: expect.any(Array) },
    });
    expect(await confirmTotp(reader.id, factorId, code, "")).toEqual([]);
    expect((await listFactors(reader.id)).map((factor) => factor.kind).sort()).toEqual(["passkey", "totp"]);
  });
});
