import crypto from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { signInChallenges } from "#db/schema";
import { signIn } from "~/features/auth/session.server";
import { assertNotBlocked, hit, type Rule } from "~/features/auth/throttle.server";
import { sendInBackground } from "~/features/mail/mailer.server";
import { signInCodeMail } from "~/features/mail/templates.server";
import { isLanguage, type Language } from "~/i18n/config";
import type { RequestMeta } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { readCookies } from "~/lib/preferences.server";
import { hashToken, randomToken } from "~/lib/tokens.server";
import { isKnownDevice, rememberDevice } from "./devices.server";
import {
  type AuditedUse,
  auditSecurity,
  listFactors,
  passkeyAuthenticationOptions,
  recoveryCodesLeft,
  signInNeeds,
  usePasskey,
  useRecoveryCode,
  useTotp,
} from "./factors.server";

/**
 * The sign-in's second step (ADR 65). Once the password (or a provider, or a reset link) is right, the
 * account is signed in at once only when it needs nothing more; else the browser gets a `sign-in` cookie
 * naming a challenge, and /login/verify asks for an authenticator code, a passkey or a recovery code (an
 * account with a factor), or the six digits just e-mailed (an author without one, on a browser the account
 * was never used on). A challenge lasts ten minutes, takes five tries and makes one session.
 */

export const CHALLENGE_VALID_MS = 10 * 60 * 1000;
export const CHALLENGE_TRIES = 5;
/** E-mailed codes per challenge: the first and two more on request. */
export const CODES_PER_CHALLENGE = 3;

/** Code e-mails an account may be sent an hour, whoever knows its password. */
const codeMailRule: Rule = { limit: 10, windowSeconds: 60 * 60, blockSeconds: 15 * 60 };
/** Wrong second steps an account may take, across challenges, before they wait. */
const secondStepRule: Rule = { limit: 10, windowSeconds: 15 * 60, blockSeconds: 60 };

function secureCookies(): boolean {
  return getEnv().origin.startsWith("https:");
}

export function challengeCookieName(): string {
  return secureCookies() ? "__Host-sign-in" : "sign-in";
}

function challengeCookie(value: string, maxAgeSeconds: number): string {
  const parts = [
    `${challengeCookieName()}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (secureCookies()) parts.push("Secure");
  return parts.join("; ");
}

const clearChallengeCookie = () => challengeCookie("", 0);

/** What the first step established. */
export type FirstStep = {
  userId: number;
  /** How: "password", a provider's id, "reset". */
  method: string;
  remember: boolean;
  redirectTo: string;
};

/** Where the browser goes next and the cookies it gets on the way. */
export type SignInOutcome = { location: string; cookies: string[] };

/** Six random digits. */
const newCode = () => String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
const codeHash = (tokenHash: string, code: string) => hashToken(`${tokenHash}:${code}`);

/**
 * Signs the account in now, or starts its second step. Every sign-in whose first step is right comes here;
 * a signed-in session always marks its browser known for the account.
 */
export async function continueSignIn(
  request: Request,
  first: FirstStep,
  meta: RequestMeta,
  mail: { site: string; language: Language },
): Promise<SignInOutcome> {
  const account = await signInNeeds(first.userId);
  if (!account) throw new Error(`account ${first.userId} not found`);
  const needsFactor = account.factors > 0;
  const needsEmailCode =
    !needsFactor && account.role === "author" && !(await isKnownDevice(request, first.userId));
  if (!needsFactor && !needsEmailCode) {
    return { location: first.redirectTo, cookies: await finishSignIn(request, first, first.method, meta) };
  }
  const token = randomToken();
  const tokenHash = hashToken(token);
  const code = needsEmailCode ? newCode() : undefined;
  if (code) await assertNotBlocked([`sign-in-code:account:${first.userId}`], meta);
  await db()
    .delete(signInChallenges)
    .where(and(eq(signInChallenges.userId, first.userId), lt(signInChallenges.expiresAt, sql`now()`)));
  await db()
    .insert(signInChallenges)
    .values({
      tokenHash,
      userId: first.userId,
      method: first.method,
      remember: first.remember,
      redirectTo: first.redirectTo,
      codeHash: code ? codeHash(tokenHash, code) : null,
      codesSent: code ? 1 : 0,
      expiresAt: new Date(Date.now() + CHALLENGE_VALID_MS),
    });
  if (code) await mailCode(first.userId, account, code, mail);
  logger.info(
    { event: "sign-in.second-step", userId: first.userId, step: code ? "email-code" : "factor", ...meta },
    "sign-in waits for its second step",
  );
  return { location: "/login/verify", cookies: [challengeCookie(token, CHALLENGE_VALID_MS / 1000)] };
}

async function mailCode(
  userId: number,
  account: { email: string; username: string; language: string | null },
  code: string,
  mail: { site: string; language: Language },
) {
  await hit(`sign-in-code:account:${userId}`, codeMailRule);
  const language = account.language && isLanguage(account.language) ? account.language : mail.language;
  sendInBackground(
    signInCodeMail(language, account.email, {
      username: account.username,
      site: mail.site,
      code,
      minutes: String(CHALLENGE_VALID_MS / 60_000),
    }),
  );
  await auditSecurity(userId, "sign-in-code.sent", { after: {} });
}

async function finishSignIn(request: Request, first: FirstStep, verifiedBy: string, meta: RequestMeta) {
  const cookies = await signIn(request, first.userId, {
    remember: first.remember,
    meta,
    method: first.method,
    verifiedBy,
  });
  return [...cookies, await rememberDevice(request, first.userId)];
}

/** The challenge the browser's `sign-in` cookie names, while it is good. */
export async function currentChallenge(request: Request) {
  const token = readCookies(request).get(challengeCookieName());
  if (!token || token.length > 100) return undefined;
  const [row] = await db()
    .select()
    .from(signInChallenges)
    .where(and(eq(signInChallenges.tokenHash, hashToken(token)), gt(signInChallenges.expiresAt, sql`now()`)));
  return row;
}

export type Challenge = NonNullable<Awaited<ReturnType<typeof currentChallenge>>>;

/** What /login/verify offers: the e-mailed code, or the account's factors and recovery codes. */
export async function challengeChoices(challenge: Challenge) {
  if (challenge.codeHash !== null)
    return {
      emailCode: true,
      totp: false,
      passkey: false,
      recovery: false,
      canResend: challenge.codesSent < CODES_PER_CHALLENGE,
    };
  const factors = await listFactors(challenge.userId);
  return {
    emailCode: false,
    totp: factors.some((factor) => factor.kind === "totp"),
    passkey: factors.some((factor) => factor.kind === "passkey"),
    recovery: (await recoveryCodesLeft(challenge.userId)) > 0,
    canResend: false,
  };
}

/** A passkey's options for this challenge; the WebAuthn challenge is kept on it, for one use. */
export async function passkeyOptionsFor(challenge: Challenge) {
  const options = await passkeyAuthenticationOptions(challenge.userId);
  await db()
    .update(signInChallenges)
    .set({ webauthnChallenge: options.challenge })
    .where(eq(signInChallenges.id, challenge.id));
  return options;
}

export type SecondStep =
  | { kind: "totp" | "email-code" | "recovery-code"; code: string }
  | { kind: "passkey"; response: string };

/** Why a second step was refused: a wrong answer (tries left), no tries left, or the account must wait. */
export type Refusal = { refused: "wrong" | "exhausted" | "throttled"; retryAfterSeconds?: number };

/**
 * Checks a second step. Each try is counted first, in one statement that also checks the count, so five
 * tries sent at once are five tries. A right answer consumes the challenge (deleting it: of two right
 * answers at once, one makes a session) and signs in.
 */
export async function completeSecondStep(
  request: Request,
  challenge: Challenge,
  step: SecondStep,
  meta: RequestMeta,
): Promise<SignInOutcome | Refusal> {
  const throttleKey = `second-step:account:${challenge.userId}`;
  try {
    await assertNotBlocked([throttleKey], meta);
  } catch (error) {
    const wait = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (wait !== undefined) return { refused: "throttled", retryAfterSeconds: wait };
    throw error;
  }
  const [counted] = await db()
    .update(signInChallenges)
    .set({ attempts: sql`${signInChallenges.attempts} + 1` })
    .where(
      and(
        eq(signInChallenges.id, challenge.id),
        lt(signInChallenges.attempts, CHALLENGE_TRIES),
        gt(signInChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({
      attempts: signInChallenges.attempts,
      webauthnChallenge: signInChallenges.webauthnChallenge,
    });
  if (!counted) return exhausted(challenge);
  const kind: AuditedUse = step.kind;
  if (await stepIsRight(challenge, step, counted.webauthnChallenge)) {
    const [consumed] = await db()
      .delete(signInChallenges)
      .where(eq(signInChallenges.id, challenge.id))
      .returning({ id: signInChallenges.id });
    if (consumed) {
      await auditSecurity(challenge.userId, "second-factor.used", {
        after: { kind, method: challenge.method },
      });
      const first = { ...challenge, redirectTo: challenge.redirectTo };
      const cookies = await finishSignIn(request, first, `${challenge.method}+${kind}`, meta);
      return { location: challenge.redirectTo, cookies: [...cookies, clearChallengeCookie()] };
    }
  }
  await hit(throttleKey, secondStepRule);
  await auditSecurity(challenge.userId, "second-factor.failed", {
    after: { kind, method: challenge.method },
  });
  logger.warn(
    { event: "sign-in.second-step-failed", userId: challenge.userId, kind, ...meta },
    "second step refused",
  );
  if (counted.attempts >= CHALLENGE_TRIES) return exhausted(challenge);
  return { refused: "wrong" };
}

async function exhausted(challenge: Challenge): Promise<Refusal> {
  await db().delete(signInChallenges).where(eq(signInChallenges.id, challenge.id));
  return { refused: "exhausted" };
}

async function stepIsRight(challenge: Challenge, step: SecondStep, webauthnChallenge: string | null) {
  switch (step.kind) {
    case "email-code": {
      if (challenge.codeHash === null) return false;
      const given = Buffer.from(codeHash(challenge.tokenHash, step.code));
      const expected = Buffer.from(challenge.codeHash);
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    }
    // An e-mailed code stands in for a factor only for an account that has none.
    case "totp":
      return challenge.codeHash === null && useTotp(challenge.userId, step.code);
    case "recovery-code":
      return challenge.codeHash === null && useRecoveryCode(challenge.userId, step.code);
    case "passkey": {
      if (challenge.codeHash !== null || !webauthnChallenge) return false;
      // The WebAuthn challenge is used once, right or wrong.
      await db()
        .update(signInChallenges)
        .set({ webauthnChallenge: null })
        .where(eq(signInChallenges.id, challenge.id));
      return usePasskey(challenge.userId, step.response, webauthnChallenge);
    }
  }
}

/** A new e-mailed code for the challenge (the old one stops working), while it has sends left. */
export async function resendCode(
  challenge: Challenge,
  meta: RequestMeta,
  mail: { site: string; language: Language },
): Promise<boolean> {
  if (challenge.codeHash === null) return false;
  try {
    await assertNotBlocked([`sign-in-code:account:${challenge.userId}`], meta);
  } catch {
    return false;
  }
  const code = newCode();
  const [updated] = await db()
    .update(signInChallenges)
    .set({
      codeHash: codeHash(challenge.tokenHash, code),
      codesSent: sql`${signInChallenges.codesSent} + 1`,
      attempts: 0,
      expiresAt: new Date(Date.now() + CHALLENGE_VALID_MS),
    })
    .where(and(eq(signInChallenges.id, challenge.id), lt(signInChallenges.codesSent, CODES_PER_CHALLENGE)))
    .returning({ id: signInChallenges.id });
  if (!updated) return false;
  const account = await signInNeeds(challenge.userId);
  if (account) await mailCode(challenge.userId, account, code, mail);
  return true;
}

/** Drops the challenge (the reader chose to start again). */
export async function cancelChallenge(challenge: Challenge): Promise<string> {
  await db().delete(signInChallenges).where(eq(signInChallenges.id, challenge.id));
  return clearChallengeCookie();
}
