import { z } from "zod";

/** The inquiry form's limits (docs/decisions/0026-inquiries.md): the page, the schema and the tests share them. */
export const INQUIRY_LIMITS = { name: 100, email: 254, messageMin: 20, messageMax: 2_000 } as const;

/** Control characters (line breaks included) have no place in a name that goes into a mail's subject. */
const CONTROL = /\p{Cc}/u;

/**
 * The inquiry form, shared by the browser (messages at once) and the action (the authority). Messages are
 * catalogue keys; the form translates them. Lengths are counted after trimming.
 */
export const inquirySchema = z.object({
  name: z
    .string({ error: "inquiry.errors.nameRequired" })
    .trim()
    .min(1, { error: "inquiry.errors.nameRequired" })
    .max(INQUIRY_LIMITS.name, { error: "inquiry.errors.nameTooLong" })
    .refine((name) => !CONTROL.test(name), { error: "inquiry.errors.nameChars" }),
  email: z
    .string({ error: "validation.email" })
    .trim()
    .max(INQUIRY_LIMITS.email, { error: "validation.email" })
    .pipe(z.email({ error: "validation.email" })),
  message: z
    .string({ error: "inquiry.errors.messageTooShort" })
    .trim()
    .min(INQUIRY_LIMITS.messageMin, { error: "inquiry.errors.messageTooShort" })
    .max(INQUIRY_LIMITS.messageMax, { error: "inquiry.errors.messageTooLong" })
    .transform((message) => message.replace(/\r\n?/g, "\n")),
});

export type Inquiry = z.output<typeof inquirySchema>;
