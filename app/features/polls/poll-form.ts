import { z } from "zod";
import { localMinuteField, requiredText } from "~/lib/form-fields";
import { INT32_MAX } from "~/lib/parse";
import { CONTROL_OR_BIDI, codePoints } from "~/lib/plain-text";
import { optionFields, POLL_LIMITS } from "./limits";

const line = (max: number, error: string) =>
  z
    .string({ error })
    .max(max * 4, { error })
    .trim()
    .refine((value) => codePoints(value) <= max, { error })
    .refine((value) => !CONTROL_OR_BIDI.test(value), { error: "admin.polls.errors.plainText" });

/** An upload's id as the option's select sends it: empty (no image yet) or a positive int4. */
const uploadChoice = z
  .string({ error: "admin.polls.errors.image" })
  .regex(/^(|[1-9]\d{0,9})$/, { error: "admin.polls.errors.image" })
  .refine((value) => value === "" || Number(value) <= INT32_MAX, { error: "admin.polls.errors.image" })
  .default("");

const optionShape = Object.fromEntries(
  optionFields.flatMap((field) => [
    [field.label, line(POLL_LIMITS.label, "admin.polls.errors.label").default("")],
    [field.image, uploadChoice],
  ]),
) as Record<string, z.ZodDefault<z.ZodType<string>>>;

export type PollOptionInput = { label: string; uploadId: number };

/**
 * The poll form (browser and action): the question, the open and close times (the author's wall clock, turned
 * into instants in their zone by the action), and up to eight option rows, each a label and an uploaded image.
 * A row left empty is no option; a row with one of the two needs the other; at least two options.
 */
export const pollSchema = z
  .object({
    question: requiredText(POLL_LIMITS.question * 4, "admin.polls.errors.question").refine(
      (value) => codePoints(value) <= POLL_LIMITS.question && !CONTROL_OR_BIDI.test(value),
      { error: "admin.polls.errors.question" },
    ),
    opensLocal: localMinuteField("admin.polls.errors.opens"),
    closesLocal: localMinuteField("admin.polls.errors.closes"),
    ...optionShape,
  })
  .superRefine((form, context) => {
    const values = form as Record<string, string>;
    // Same zone, same format: the strings order as the times do.
    if (form.closesLocal <= form.opensLocal)
      context.addIssue({ code: "custom", path: ["closesLocal"], message: "admin.polls.errors.closes" });
    let used = 0;
    for (const field of optionFields) {
      const label = values[field.label] ?? "";
      const image = values[field.image] ?? "";
      if (label === "" && image === "") continue;
      used++;
      if (label === "")
        context.addIssue({ code: "custom", path: [field.label], message: "admin.polls.errors.label" });
      if (image === "")
        context.addIssue({ code: "custom", path: [field.image], message: "admin.polls.errors.image" });
    }
    if (used < POLL_LIMITS.minOptions)
      context.addIssue({ code: "custom", path: ["option0Label"], message: "admin.polls.errors.options" });
  })
  .transform((form) => {
    const values = form as Record<string, string>;
    const options: PollOptionInput[] = optionFields.flatMap((field) => {
      const label = values[field.label] ?? "";
      const image = values[field.image] ?? "";
      return label && image ? [{ label, uploadId: Number(image) }] : [];
    });
    return {
      question: form.question,
      opensLocal: form.opensLocal,
      closesLocal: form.closesLocal,
      options,
    };
  });

export type PollForm = z.output<typeof pollSchema>;
