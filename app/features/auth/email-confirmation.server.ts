import { and, eq, isNull } from "drizzle-orm";
import { db } from "#db/client.server";
import { users } from "#db/schema";
import { WELCOME_COINS } from "~/features/coins/constants";
import { sendWithRetries } from "~/features/mail/mailer.server";
import { confirmEmailMail, welcomeMail } from "~/features/mail/templates.server";
import type { Language } from "~/i18n/config";
import type { RequestMeta } from "~/lib/context";
import { logger } from "~/lib/logger.server";
import { hashToken, randomToken } from "~/lib/tokens.server";

/**
 * The address's confirmation (ADR 56). A new account signs in at once; its e-mail address is confirmed
 * when the link of the confirmation e-mail is followed (a POST from the page it opens). Until then the
 * site shows a banner and the reader may not post comments. The link's token is 256 bits from the CSPRNG,
 * stored as its SHA-256 on the account; a newer e-mail voids it, a change of address voids it, and using it
 * clears it. It has no expiry: it can only confirm the address it was sent to, which is what it proves.
 */

export const confirmationLink = (origin: string, token: string) =>
  `${origin}/confirm-email?${new URLSearchParams({ token })}`;

type Mailing = { origin: string; site: string; language: Language };

/** The welcome e-mail of a registration: the welcome coins, and the button that confirms the address. */
export async function sendWelcomeMail(
  to: { email: string; username: string },
  token: string,
  { origin, site, language }: Mailing,
): Promise<void> {
  await sendWithRetries(
    welcomeMail(language, to.email, {
      username: to.username,
      site,
      link: confirmationLink(origin, token),
      coins: String(WELCOME_COINS),
    }),
  );
}

/**
 * A fresh confirmation link for the account's current address, voiding the older one, or undefined when
 * the address is already confirmed (or the account is gone). The caller mails it (`sendConfirmationMail`).
 */
export async function renewConfirmation(
  userId: number,
): Promise<{ token: string; email: string; username: string } | undefined> {
  const token = randomToken();
  const [row] = await db()
    .update(users)
    .set({ emailConfirmationHash: hashToken(token) })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)))
    .returning({ email: users.email, username: users.username });
  return row && { token, ...row };
}

/** The e-mail that confirms an address again (asked for from the banner's page, or after a change of address). */
export async function sendConfirmationMail(
  to: { email: string; username: string },
  token: string,
  { origin, site, language }: Mailing,
): Promise<void> {
  await sendWithRetries(
    confirmEmailMail(language, to.email, {
      username: to.username,
      site,
      link: confirmationLink(origin, token),
    }),
  );
}

/**
 * Confirms the address the token was sent to, once: the account's id, or undefined for a token that is
 * unknown, used, or voided by a newer e-mail or a change of address.
 */
export async function confirmEmail(token: string, meta?: RequestMeta): Promise<number | undefined> {
  const [row] = await db()
    .update(users)
    .set({ emailConfirmedAt: new Date(), emailConfirmationHash: null })
    .where(and(eq(users.emailConfirmationHash, hashToken(token)), isNull(users.emailConfirmedAt)))
    .returning({ id: users.id });
  if (row) logger.info({ event: "email.confirmed", userId: row.id, ...meta }, "e-mail address confirmed");
  return row?.id;
}
