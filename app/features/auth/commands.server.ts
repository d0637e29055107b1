import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { orders, passwordResetTokens, payments, sessions, users } from "#db/schema";
import { WELCOME_COINS } from "~/features/coins/constants";
import { book } from "~/features/coins/ledger.server";
import { sendInBackground, sendWithRetries } from "~/features/mail/mailer.server";
import {
  confirmEmailMail,
  emailChangedMail,
  passwordChangedMail,
  resetPasswordMail,
} from "~/features/mail/templates.server";
import type { Language } from "~/i18n/config";
import type { RequestMeta } from "~/lib/context";
import { violatedUniqueConstraint } from "~/lib/db-errors";
import { getEnv } from "~/lib/env.server";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { hashToken, randomToken } from "~/lib/tokens.server";
import { confirmationLink } from "./email-confirmation.server";
import { hashPassword, needsRehash, verifyPassword } from "./password.server";

const RESET_VALID_MS = 60 * 60 * 1000;

/** A form problem tied to a field, with a catalogue key for its message. */
export class FieldError extends AppError {
  override name = "FieldError";
  constructor(
    readonly field: string,
    messageKey: string,
  ) {
    super("invalid-field", 400, messageKey, `${field}: ${messageKey}`);
  }
}

const byEmail = (email: string) => eq(sql`lower(${users.email})`, email.toLowerCase());
const byUsername = (username: string) => eq(sql`lower(${users.username})`, username.toLowerCase());

async function assertAvailable(fields: { username?: string; email?: string }, exceptUserId?: number) {
  const check = async (condition: ReturnType<typeof eq>) => {
    const [row] = await db().select({ id: users.id }).from(users).where(condition);
    return row && row.id !== exceptUserId;
  };
  if (fields.email && (await check(byEmail(fields.email))))
    throw new FieldError("email", "validation.emailTaken");
  if (fields.username && (await check(byUsername(fields.username))))
    throw new FieldError("username", "validation.usernameTaken");
}

function uniqueFieldError(error: unknown): FieldError | undefined {
  const constraint = violatedUniqueConstraint(error);
  if (constraint === "users_email_lower") return new FieldError("email", "validation.emailTaken");
  if (constraint === "users_username_lower") return new FieldError("username", "validation.usernameTaken");
  return undefined;
}

type NewAccount = { username: string; email: string; language?: Language };

/**
 * Inserts the account and books its welcome coins in one transaction: both or neither. `confirmation` is
 * how the address stands: confirmed by a provider, or the hash of the token the confirmation e-mail carries.
 */
async function insertAccount(
  input: NewAccount & { passwordHash: string | null },
  confirmation: { confirmedAt: Date } | { tokenHash: string },
  meta?: RequestMeta,
): Promise<number> {
  try {
    return await db().transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          username: input.username,
          email: input.email,
          passwordHash: input.passwordHash,
          language: input.language,
          emailConfirmedAt: "confirmedAt" in confirmation ? confirmation.confirmedAt : null,
          emailConfirmationHash: "tokenHash" in confirmation ? confirmation.tokenHash : null,
        })
        .returning({ id: users.id });
      if (!user) throw new Error("insert returned no row");
      await book(
        tx,
        { userId: user.id, delta: WELCOME_COINS, reason: "welcome", idempotencyKey: `welcome:${user.id}` },
        meta,
      );
      logger.info({ event: "account.created", userId: user.id, ...meta }, "account created");
      return user.id;
    });
  } catch (error) {
    throw uniqueFieldError(error) ?? error;
  }
}

/**
 * Creates an account with its welcome coins, for social sign-in (whose provider has shown the e-mail is
 * the person's, so the address counts as confirmed). A taken username or e-mail (in any case) is a
 * FieldError, also when two sign-ups race.
 */
export async function createAccount(
  input: NewAccount & { password: string | null },
  meta?: RequestMeta,
): Promise<number> {
  await assertAvailable(input);
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return insertAccount({ ...input, passwordHash }, { confirmedAt: new Date() }, meta);
}

/**
 * The registration form's account (ADR 56): checked for a taken username or e-mail first (a FieldError,
 * before any hashing), then one argon2 hash, the account and its welcome coins. The address is still to be
 * confirmed: the returned token goes into the confirmation e-mail, only its hash is stored. Two
 * registrations racing for one address or username: the loser gets the same FieldError from the index.
 */
export async function registerAccount(
  input: NewAccount & { password: string },
  meta?: RequestMeta,
): Promise<{ userId: number; token: string }> {
  await assertAvailable(input);
  const passwordHash = await hashPassword(input.password);
  const token = randomToken();
  const userId = await insertAccount({ ...input, passwordHash }, { tokenHash: hashToken(token) }, meta);
  logger.info({ event: "registration.completed", userId, ...meta }, "registration completed");
  return { userId, token };
}

/**
 * The user whose e-mail and password these are, or undefined; `suspended` when the author suspended the
 * account (it may not sign in). Rehashes a hash made with weaker parameters.
 */
export async function authenticate(
  email: string,
  password: string,
): Promise<{ id: number; suspended: boolean } | undefined> {
  const [user] = await db()
    .select({ id: users.id, passwordHash: users.passwordHash, suspendedAt: users.suspendedAt })
    .from(users)
    .where(byEmail(email));
  const valid = await verifyPassword(user?.passwordHash, password);
  if (!user || !valid) return undefined;
  if (user.passwordHash && needsRehash(user.passwordHash)) {
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
    logger.info({ userId: user.id }, "password rehashed with current parameters");
  }
  return { id: user.id, suspended: user.suspendedAt !== null };
}

/** Whether the author suspended the account (it may not sign in; its sessions were ended). */
export async function isSuspended(userId: number): Promise<boolean> {
  const [user] = await db()
    .select({ suspendedAt: users.suspendedAt })
    .from(users)
    .where(eq(users.id, userId));
  return user?.suspendedAt != null;
}

/**
 * Sends a reset link when the e-mail has an account; answers nothing either way (the caller shows the same
 * message). A new link voids the older ones. The link is built from APP_ORIGIN, never the Host header.
 */
export async function requestPasswordReset(
  email: string,
  { origin, language, site }: { origin: string; language: Language; site: string },
  meta?: RequestMeta,
) {
  const [user] = await db()
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(byEmail(email));
  if (!user) {
    logger.info(
      { event: "password-reset.requested", known: false, ...meta },
      "password reset requested for an unknown e-mail",
    );
    return;
  }
  const token = randomToken();
  await db().transaction(async (tx) => {
    await tx
      .delete(passwordResetTokens)
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_VALID_MS),
    });
  });
  logger.info(
    { event: "password-reset.requested", known: true, userId: user.id, ...meta },
    "password reset requested",
  );
  const link = `${origin}/reset-password?${new URLSearchParams({ token })}`;
  await sendWithRetries(resetPasswordMail(language, user.email, { username: user.username, site, link }));
}

/** Whether a reset token is still good (unused, unexpired, not voided). Does not consume it. */
export async function isResetTokenValid(token: string): Promise<boolean> {
  const [row] = await db()
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    );
  return row !== undefined;
}

/** Consumes the token (once), sets the new password and ends every session of the account. */
export async function resetPassword(
  token: string,
  password: string,
  meta?: RequestMeta,
): Promise<number | undefined> {
  const passwordHash = await hashPassword(password);
  return db().transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!used) return undefined;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, used.userId));
    await tx.delete(sessions).where(eq(sessions.userId, used.userId));
    logger.info(
      { event: "password-reset.completed", userId: used.userId, ...meta },
      "password reset: every session revoked",
    );
    return used.userId;
  });
}

/** Refuses (a FieldError on `currentPassword`) unless it is the account's password; an account without one passes. */
export async function assertCurrentPassword(userId: number, currentPassword: string | undefined) {
  const [user] = await db()
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  // A social-only account has no password to ask for.
  if (user?.passwordHash === null) return;
  if (!(await verifyPassword(user?.passwordHash, currentPassword ?? ""))) {
    throw new FieldError("currentPassword", "validation.currentPasswordWrong");
  }
}

/** What a notice to the account's owner needs beyond the account: their language and the site's name. */
export type AccountNotice = { language: Language; site: string };

/** Changes the sign-in e-mail and tells the old address (a hijacked account's owner hears of it). */
export async function changeEmail(
  userId: number,
  email: string,
  currentPassword: string,
  notice: AccountNotice,
): Promise<void> {
  await assertCurrentPassword(userId, currentPassword);
  await assertAvailable({ email }, userId);
  const [before] = await db()
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  // The new address is to be confirmed in its turn (ADR 56): the link goes to it, the old one's is void.
  const token = randomToken();
  try {
    await db()
      .update(users)
      .set({ email, emailConfirmedAt: null, emailConfirmationHash: hashToken(token) })
      .where(eq(users.id, userId));
  } catch (error) {
    throw uniqueFieldError(error) ?? error;
  }
  logger.info({ userId }, "e-mail changed");
  if (!before) return;
  sendInBackground(
    emailChangedMail(notice.language, before.email, { username: before.username, site: notice.site, email }),
  );
  sendInBackground(
    confirmEmailMail(notice.language, email, {
      username: before.username,
      site: notice.site,
      link: confirmationLink(getEnv().origin, token),
    }),
  );
}

/** Sets a new password, ends the account's other sessions and tells the owner. */
export async function changePassword(
  userId: number,
  currentPassword: string,
  password: string,
  keepSessionId: number,
  notice: AccountNotice,
) {
  await assertCurrentPassword(userId, currentPassword);
  const [user] = await db()
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, userId))
    .returning({ email: users.email, username: users.username });
  await db()
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), sql`${sessions.id} <> ${keepSessionId}`));
  logger.info({ userId }, "password changed: other sessions revoked");
  if (user)
    sendInBackground(
      passwordChangedMail(notice.language, user.email, { username: user.username, site: notice.site }),
    );
}

/**
 * Deletes the account and everything personal (sessions, progress, identities: ON DELETE CASCADE). The money
 * records the accounts need (payments, orders and their lines, the coin ledger) stay, anonymised: their
 * account becomes null (ON DELETE SET NULL), and an order's address, dedication and a payment's wall name
 * are erased in the same transaction.
 */
export async function deleteAccount(userId: number, currentPassword: string | undefined) {
  await assertCurrentPassword(userId, currentPassword);
  await db().transaction(async (tx) => {
    await tx
      .update(orders)
      .set({
        shipName: null,
        shipLine1: null,
        shipLine2: null,
        shipCity: null,
        shipPostalCode: null,
        dedication: null,
      })
      .where(eq(orders.userId, userId));
    await tx.update(payments).set({ supporterChoice: null }).where(eq(payments.userId, userId));
    await tx.delete(users).where(eq(users.id, userId));
  });
  logger.info({ userId }, "account deleted");
}
