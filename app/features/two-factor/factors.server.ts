import crypto from "node:crypto";
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { db } from "#db/client.server";
import { passkeyEnrolments, recoveryCodes, secondFactors, users } from "#db/schema";
import { type Executor, recordAudit } from "~/features/audit/log.server";
import type { Transaction } from "~/features/audit/row-editing.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { hashToken } from "~/lib/tokens.server";
import { RECOVERY_ALPHABET, RECOVERY_CODE_LENGTH } from "./schemas";

/**
 * An account's second factors (ADR 65): authenticator-app codes (TOTP, RFC 6238, through otpauth), passkeys
 * (WebAuthn, through @simplewebauthn/server) and one-time recovery codes. Every enrolment, removal, use and
 * failed use is written to the audit log, as the account's own act.
 */

const TOTP_PERIOD = 30;
/** One step either side of now: a phone's clock a little off, or a code typed as it turned. */
const TOTP_WINDOW = 1;
const RECOVERY_CODES = 10;
/** How long a TOTP enrolment waits for its first code, and a passkey enrolment for the browser. */
const ENROLMENT_VALID_MS = 15 * 60 * 1000;

export type FactorKind = "totp" | "passkey";
export type AuditedUse = "totp" | "passkey" | "recovery-code" | "email-code";

/**
 * Writes one line of the audit log about an account's sign-in security: the owner's act, or the operator's
 * (`via: "cli"`), inside the caller's transaction when `on` is given.
 */
export async function auditSecurity(
  userId: number,
  action: string,
  change: { before?: Record<string, unknown>; after?: Record<string, unknown> },
  { via = "account", on = db() }: { via?: "account" | "cli"; on?: Executor } = {},
): Promise<void> {
  await recordAudit(on, via === "cli" ? { via: "cli" } : { via: "account", userId }, {
    action,
    subjectType: "user",
    subjectId: userId,
    ...change,
  });
}

function totp(secret: string): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD,
  });
}

/** The 30-second step a code typed at `now` was made for, or undefined when it matches none near now. */
export function totpStep(secret: string, code: string, now: number): number | undefined {
  const delta = totp(secret).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

/** The code an authenticator shows at `now` (for tests, as an app would show it). */
export function totpCode(secret: string, now = Date.now()): string {
  return totp(secret).generate({ timestamp: now });
}

/** The account's confirmed factors, oldest first, for /settings/security and the sign-in's second step. */
export async function listFactors(userId: number, on: Pick<Transaction, "select"> = db()) {
  return on
    .select({
      id: secondFactors.id,
      kind: secondFactors.kind,
      label: secondFactors.label,
      createdAt: secondFactors.createdAt,
      lastUsedAt: secondFactors.lastUsedAt,
    })
    .from(secondFactors)
    .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)))
    .orderBy(asc(secondFactors.id));
}

/** How many unused recovery codes the account has left. */
export async function recoveryCodesLeft(
  userId: number,
  on: Pick<Transaction, "select"> = db(),
): Promise<number> {
  const [row] = await on
    .select({ count: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/**
 * Accepts an authenticator code for the account: it must match one of its confirmed TOTP factors within one
 * step of now, for a step newer than any accepted before. The step is moved in the same statement that
 * checks it, so the same code sent twice at once is accepted once.
 */
export async function useTotp(userId: number, code: string, now = Date.now()): Promise<boolean> {
  const factors = await db()
    .select({ id: secondFactors.id, secret: secondFactors.totpSecret })
    .from(secondFactors)
    .where(
      and(
        eq(secondFactors.userId, userId),
        eq(secondFactors.kind, "totp"),
        isNotNull(secondFactors.confirmedAt),
      ),
    );
  for (const factor of factors) {
    if (!factor.secret) continue;
    const step = totpStep(factor.secret, code, now);
    if (step === undefined) continue;
    const [accepted] = await db()
      .update(secondFactors)
      .set({ totpLastStep: step, lastUsedAt: sql`now()` })
      .where(
        and(
          eq(secondFactors.id, factor.id),
          or(isNull(secondFactors.totpLastStep), lt(secondFactors.totpLastStep, step)),
        ),
      )
      .returning({ id: secondFactors.id });
    if (accepted) return true;
  }
  return false;
}

function randomRecoveryCode(): string {
  let code = "";
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++)
    code += RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)];
  return code;
}

/** A recovery code as shown to its owner: two groups of five. */
export const shownRecoveryCode = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`;

const recoveryHash = (userId: number, code: string) => hashToken(`${userId}:${code}`);

/**
 * Ten new recovery codes for the account, replacing any it had: returned once to be shown, only their hashes
 * are kept.
 */
export async function newRecoveryCodes(userId: number): Promise<string[]> {
  return db().transaction((tx) => writeRecoveryCodes(tx, userId));
}

async function writeRecoveryCodes(tx: Transaction, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, randomRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: recoveryHash(userId, code) })));
  await auditSecurity(userId, "recovery-codes.created", { after: { count: codes.length } }, { on: tx });
  return codes.map(shownRecoveryCode);
}

/**
 * The end of an enrolment, in its transaction (a factor is never added without the codes its owner is shown):
 * its audit line, and new recovery codes when it is the account's first factor or none are left, else [].
 */
async function enrolled(
  tx: Transaction,
  userId: number,
  factor: { kind: "totp" | "passkey"; factorId: number; label: string },
): Promise<string[]> {
  await auditSecurity(userId, "second-factor.enrolled", { after: factor }, { on: tx });
  const first = (await listFactors(userId, tx)).length === 1;
  return first || (await recoveryCodesLeft(userId, tx)) === 0 ? writeRecoveryCodes(tx, userId) : [];
}

/** Uses up a recovery code (already normalised): true once; the same code sent twice at once counts once. */
export async function useRecoveryCode(userId: number, code: string): Promise<boolean> {
  const [used] = await db()
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, recoveryHash(userId, code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used !== undefined;
}

/**
 * Starts a TOTP enrolment: a new secret, kept unconfirmed until the owner types a first code from their app
 * (older unconfirmed ones are dropped). Returns the factor's id, the secret and the otpauth:// URI apps read.
 */
export async function startTotp(
  user: { id: number; username: string },
  site: string,
): Promise<{ factorId: number; secret: string; uri: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const factorId = await db().transaction(async (tx) => {
    await tx
      .delete(secondFactors)
      .where(and(eq(secondFactors.userId, user.id), isNull(secondFactors.confirmedAt)));
    const [row] = await tx
      .insert(secondFactors)
      .values({ userId: user.id, kind: "totp", label: "", totpSecret: secret })
      .returning({ id: secondFactors.id });
    if (!row) throw new Error("insert returned no row");
    return row.id;
  });
  return { factorId, secret, uri: totpUri(secret, user.username, site) };
}

function totpUri(secret: string, username: string, site: string): string {
  return new TOTP({
    issuer: site,
    label: username,
    secret: Secret.fromBase32(secret),
    period: TOTP_PERIOD,
  }).toString();
}

/** The TOTP enrolment waiting for its first code, if one was started in the last 15 minutes. */
export async function pendingTotp(user: { id: number; username: string }, site: string) {
  const [row] = await db()
    .select({ id: secondFactors.id, secret: secondFactors.totpSecret })
    .from(secondFactors)
    .where(
      and(
        eq(secondFactors.userId, user.id),
        eq(secondFactors.kind, "totp"),
        isNull(secondFactors.confirmedAt),
        gt(secondFactors.createdAt, new Date(Date.now() - ENROLMENT_VALID_MS)),
      ),
    );
  if (!row?.secret) return undefined;
  return { factorId: row.id, secret: row.secret, uri: totpUri(row.secret, user.username, site) };
}

/**
 * Confirms a TOTP enrolment with a first code. Returns the new recovery codes when this is the account's
 * first factor (shown once), an empty list when it had others, or undefined when the code is wrong.
 */
export async function confirmTotp(
  userId: number,
  factorId: number,
  code: string,
  label: string,
  now = Date.now(),
): Promise<string[] | undefined> {
  const [factor] = await db()
    .select({ secret: secondFactors.totpSecret })
    .from(secondFactors)
    .where(
      and(
        eq(secondFactors.id, factorId),
        eq(secondFactors.userId, userId),
        eq(secondFactors.kind, "totp"),
        isNull(secondFactors.confirmedAt),
        gt(secondFactors.createdAt, new Date(now - ENROLMENT_VALID_MS)),
      ),
    );
  const step = factor?.secret ? totpStep(factor.secret, code, now) : undefined;
  if (step === undefined) {
    await auditSecurity(userId, "second-factor.failed", { after: { kind: "totp", during: "enrolment" } });
    return undefined;
  }
  const codes = await db().transaction(async (tx) => {
    const [confirmed] = await tx
      .update(secondFactors)
      .set({ confirmedAt: sql`now()`, totpLastStep: step, label })
      .where(and(eq(secondFactors.id, factorId), isNull(secondFactors.confirmedAt)))
      .returning({ id: secondFactors.id });
    return confirmed ? enrolled(tx, userId, { kind: "totp", factorId, label }) : undefined;
  });
  if (codes) logger.info({ event: "second-factor.enrolled", kind: "totp", userId }, "second factor enrolled");
  return codes;
}

/** Removes one of the account's factors; with the last one go its recovery codes. */
export async function removeFactor(userId: number, factorId: number): Promise<boolean> {
  const removed = await db().transaction(async (tx) => {
    const [row] = await tx
      .delete(secondFactors)
      .where(and(eq(secondFactors.id, factorId), eq(secondFactors.userId, userId)))
      .returning({ kind: secondFactors.kind, label: secondFactors.label });
    if (!row) return undefined;
    const [left] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(secondFactors)
      .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)));
    if (!left?.count) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await auditSecurity(userId, "second-factor.removed", { before: { factorId, ...row } }, { on: tx });
    return row;
  });
  if (removed)
    logger.info({ event: "second-factor.removed", userId, kind: removed.kind }, "second factor removed");
  return removed !== undefined;
}

/**
 * The operator's way back in for an owner who lost every factor (`npm run admin -- reset-second-factor`):
 * removes the account's factors and recovery codes, audited as the command line's act. Returns how many
 * factors went.
 */
export async function clearFactors(userId: number): Promise<number> {
  return db().transaction(async (tx) => {
    const removed = await tx
      .delete(secondFactors)
      .where(eq(secondFactors.userId, userId))
      .returning({ id: secondFactors.id, kind: secondFactors.kind });
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await auditSecurity(
      userId,
      "second-factor.cleared",
      { before: { factors: removed.map((row) => row.kind) } },
      { via: "cli", on: tx },
    );
    return removed.length;
  });
}

export type ClearOutcome = "cleared" | "none" | "unknownEmail";

/** `clearFactors` for the account with this e-mail (in any case), as the operator names it. */
export async function clearFactorsByEmail(
  email: string,
): Promise<{ outcome: ClearOutcome; removed: number }> {
  const [user] = await db()
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
  if (!user) return { outcome: "unknownEmail", removed: 0 };
  const removed = await clearFactors(user.id);
  logger.info(
    { event: "second-factor.cleared", userId: user.id, removed, via: "cli" },
    "second factors cleared",
  );
  return { outcome: removed > 0 ? "cleared" : "none", removed };
}

/** The relying party passkeys are made for: this site's origin and host name. */
function relyingParty() {
  const origin = getEnv().origin;
  return { origin, id: new URL(origin).hostname };
}

async function passkeysOf(userId: number) {
  return db()
    .select({
      id: secondFactors.id,
      credentialId: secondFactors.credentialId,
      publicKey: secondFactors.publicKey,
      signCount: secondFactors.signCount,
      transports: secondFactors.transports,
    })
    .from(secondFactors)
    .where(and(eq(secondFactors.userId, userId), eq(secondFactors.kind, "passkey")));
}

const transportsOf = (value: string | null) =>
  value ? (value.split(",") as AuthenticatorTransportFuture[]) : undefined;

/** The options the browser needs to make a passkey for the account; their challenge waits 15 minutes. */
export async function passkeyRegistrationOptions(user: { id: number; username: string }, site: string) {
  const party = relyingParty();
  const existing = await passkeysOf(user.id);
  const options = await generateRegistrationOptions({
    rpName: site,
    rpID: party.id,
    userName: user.username,
    userID: new TextEncoder().encode(`user-${user.id}`),
    attestationType: "none",
    excludeCredentials: existing.flatMap((key) =>
      key.credentialId ? [{ id: key.credentialId, transports: transportsOf(key.transports) }] : [],
    ),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await db()
    .insert(passkeyEnrolments)
    .values({
      challenge: options.challenge,
      userId: user.id,
      expiresAt: new Date(Date.now() + ENROLMENT_VALID_MS),
    });
  return options;
}

/** The challenge inside a WebAuthn response's client data, or undefined when it has none. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  const data = response.response?.clientDataJSON;
  if (typeof data !== "string" || data.length > 8192) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(data, "base64url").toString("utf8"));
    const challenge = (parsed as { challenge?: unknown }).challenge;
    return typeof challenge === "string" ? challenge : undefined;
  } catch {
    return undefined;
  }
}

function parseResponse<T>(json: string): T | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string"
      ? (value as T)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies the browser's new passkey against the challenge given to this account (used up either way) and
 * keeps it. Returns the new recovery codes when it is the account's first factor, [] when it had others,
 * undefined when the response does not verify.
 */
export async function registerPasskey(
  userId: number,
  json: string,
  label: string,
): Promise<string[] | undefined> {
  const response = parseResponse<RegistrationResponseJSON>(json);
  const challenge = response && challengeOf(response);
  const party = relyingParty();
  // One transaction: the enrolment's challenge is used up (right or wrong) only with the rest written.
  const codes = await db().transaction(async (tx) => {
    const [enrolment] = challenge
      ? await tx
          .delete(passkeyEnrolments)
          .where(
            and(
              eq(passkeyEnrolments.challenge, challenge),
              eq(passkeyEnrolments.userId, userId),
              gt(passkeyEnrolments.expiresAt, sql`now()`),
            ),
          )
          .returning({ challenge: passkeyEnrolments.challenge })
      : [];
    if (!response || !enrolment) return undefined;
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: enrolment.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: false,
    }).catch((error: unknown) => {
      logger.info({ event: "passkey.refused", userId, err: error }, "passkey registration refused");
      return undefined;
    });
    if (!verified?.verified || !verified.registrationInfo) return undefined;
    const { credential } = verified.registrationInfo;
    const [row] = await tx
      .insert(secondFactors)
      .values({
        userId,
        kind: "passkey",
        label,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        signCount: credential.counter,
        transports: credential.transports?.join(",") ?? null,
        confirmedAt: sql`now()`,
      })
      .onConflictDoNothing()
      .returning({ id: secondFactors.id });
    return row ? enrolled(tx, userId, { kind: "passkey", factorId: row.id, label }) : undefined;
  });
  if (!codes) {
    await auditSecurity(userId, "second-factor.failed", { after: { kind: "passkey", during: "enrolment" } });
    return undefined;
  }
  logger.info({ event: "second-factor.enrolled", kind: "passkey", userId }, "second factor enrolled");
  return codes;
}

/** Options for the browser to sign a sign-in's challenge with one of the account's passkeys. */
export async function passkeyAuthenticationOptions(userId: number) {
  const keys = await passkeysOf(userId);
  return generateAuthenticationOptions({
    rpID: relyingParty().id,
    allowCredentials: keys.flatMap((key) =>
      key.credentialId ? [{ id: key.credentialId, transports: transportsOf(key.transports) }] : [],
    ),
    userVerification: "preferred",
  });
}

/** Verifies a passkey's signature over `challenge` for the account and moves its signature counter. */
export async function usePasskey(userId: number, json: string, challenge: string): Promise<boolean> {
  const response = parseResponse<AuthenticationResponseJSON>(json);
  if (!response) return false;
  const [key] = (await passkeysOf(userId)).filter((row) => row.credentialId === response.id);
  if (!key?.credentialId || !key.publicKey) return false;
  const party = relyingParty();
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    credential: {
      id: key.credentialId,
      publicKey: new Uint8Array(Buffer.from(key.publicKey, "base64url")),
      counter: key.signCount,
      transports: transportsOf(key.transports),
    },
    requireUserVerification: false,
  }).catch((error: unknown) => {
    logger.info({ event: "passkey.refused", userId, err: error }, "passkey sign-in refused");
    return undefined;
  });
  if (!result?.verified) return false;
  await db()
    .update(secondFactors)
    .set({ signCount: result.authenticationInfo.newCounter, lastUsedAt: sql`now()` })
    .where(eq(secondFactors.id, key.id));
  return true;
}

/** Whether the account has a confirmed second factor, and its role (whether a new device needs a code). */
export async function signInNeeds(userId: number) {
  const [user] = await db()
    .select({ role: users.role, email: users.email, username: users.username, language: users.language })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return undefined;
  return { ...user, factors: (await listFactors(userId)).length };
}
