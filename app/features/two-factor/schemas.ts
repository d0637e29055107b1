import { z } from "zod";

/**
 * The second step's forms (ADR 65), shared by the browser and the actions. Every code is short and strict:
 * a size limit before anything else, then only the characters it can hold, so no input reaches a hash or a
 * query unchecked. Spaces and dashes a reader types or pastes are dropped first.
 */

/** A six-digit code from an authenticator app or an e-mail. */
export const oneTimeCode = z
  .string({ error: "twoFactor.validation.code" })
  .max(20, { error: "twoFactor.validation.code" })
  .transform((value) => value.replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^[0-9]{6}$/, { error: "twoFactor.validation.code" }));

/** The alphabet of recovery codes: no 0/o, 1/l/i, so a code copied by hand reads back the same. */
export const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export const RECOVERY_CODE_LENGTH = 10;

/** A recovery code as shown ("abcde-fghjk"), in any case, with or without its dash. */
export const recoveryCode = z
  .string({ error: "twoFactor.validation.recoveryCode" })
  .max(40, { error: "twoFactor.validation.recoveryCode" })
  .transform((value) => value.replace(/[\s-]/g, "").toLowerCase())
  .pipe(
    z
      .string()
      .length(RECOVERY_CODE_LENGTH, { error: "twoFactor.validation.recoveryCode" })
      .regex(new RegExp(`^[${RECOVERY_ALPHABET}]+$`), { error: "twoFactor.validation.recoveryCode" }),
  );

/** What an owner calls a factor. */
export const factorLabel = z
  .string()
  .trim()
  .max(60, { error: "twoFactor.validation.labelMax" })
  .transform((value) => value || undefined)
  .optional();

/** A WebAuthn response from the browser, as JSON: passkeys' answers are a few kilobytes at most. */
export const passkeyResponse = z
  .string({ error: "twoFactor.validation.passkey" })
  .min(2, { error: "twoFactor.validation.passkey" })
  .max(16_384, { error: "twoFactor.validation.passkey" });

/** The /login/verify form: which way the reader proves it is them. */
export const verifySchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("totp"), code: oneTimeCode }),
  z.object({ intent: z.literal("email-code"), code: oneTimeCode }),
  z.object({ intent: z.literal("recovery"), code: recoveryCode }),
  z.object({ intent: z.literal("passkey"), response: passkeyResponse }),
  z.object({ intent: z.literal("resend") }),
]);

const currentPassword = z.string().max(256, { error: "validation.passwordMax" }).optional();
const factorId = z.coerce.number().int().min(1).max(2_147_483_647);

/** The /settings/security forms. */
export const securitySchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("totp-start") }),
  z.object({ intent: z.literal("totp-confirm"), factorId, code: oneTimeCode, label: factorLabel }),
  z.object({ intent: z.literal("passkey-register"), response: passkeyResponse, label: factorLabel }),
  z.object({ intent: z.literal("remove"), factorId, currentPassword }),
  z.object({ intent: z.literal("recovery-codes"), currentPassword }),
]);
