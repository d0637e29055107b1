import { z } from "zod";

export { type FieldErrors, parseForm } from "~/lib/forms";

/**
 * One schema per form, shared by the browser (instant messages) and the action (the authority).
 * Messages are catalogue keys; the form translates them.
 */
const email = z
  .string()
  .trim()
  .pipe(z.email({ error: "validation.email" }))
  .pipe(z.string().max(254, { error: "validation.email" }));
const password = z
  .string({ error: "validation.passwordMin" })
  .min(6, { error: "validation.passwordMin" })
  .max(256, { error: "validation.passwordMax" });
/** An HTML checkbox: sent as "on" when ticked, absent when not. */
export const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "true");

export const loginSchema = z.object({
  email,
  password,
  remember: checkbox,
  redirectTo: z.string().max(2048).optional(),
});

export const usernameSchema = z
  .string()
  .trim()
  .min(3, { error: "validation.usernameMin" })
  .max(30, { error: "validation.usernameMax" })
  .regex(/^[\p{L}\p{N}_.-]+$/u, { error: "validation.usernameChars" });

export const registerSchema = z
  .object({
    username: usernameSchema,
    email,
    password,
    confirmPassword: z.string(),
    acceptTerms: checkbox.refine((accepted) => accepted, { error: "validation.acceptTerms" }),
    /** Where the new reader goes once signed in: /welcome unless a page sent them here (checked on use). */
    redirectTo: z.string().max(2048).optional(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: "validation.passwordsMatch",
    path: ["confirmPassword"],
  });

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({ token: z.string().min(1).max(200), password, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    error: "validation.passwordsMatch",
    path: ["confirmPassword"],
  });

/** The confirmation page's two buttons: confirm with the e-mailed token, or send a new e-mail (ADR 56). */
export const confirmEmailSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("confirm"), token: z.string().min(1).max(200) }),
  z.object({ intent: z.literal("resend") }),
]);

export const changeEmailSchema = z.object({
  email,
  currentPassword: z
    .string()
    .min(1, { error: "validation.currentPassword" })
    .max(256, { error: "validation.passwordMax" }),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string()
      .min(1, { error: "validation.currentPassword" })
      .max(256, { error: "validation.passwordMax" }),
    password,
    confirmPassword: z.string(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: "validation.passwordsMatch",
    path: ["confirmPassword"],
  });

export const deleteAccountSchema = z.object({
  currentPassword: z.string().max(256, { error: "validation.passwordMax" }).optional(),
  confirm: checkbox.refine((confirmed) => confirmed, { error: "validation.confirmDelete" }),
});
