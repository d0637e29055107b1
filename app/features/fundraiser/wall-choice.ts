import { z } from "zod";
import type { SupporterDisplay, TierKey } from "#db/schema";
import { CONTROL_OR_BIDI, codePoints } from "~/lib/plain-text";
import { DISPLAY_NAME_MAX, displays, MESSAGE_MAX, supporterEmoji } from "./wall-choice-options";

/**
 * How a supporter appears on the wall, chosen at checkout (join and gift forms) and later from the account:
 * one schema for the three forms, in the browser and in the actions (docs/product-rules.md "Fundraiser").
 */

export const wallChoiceFields = {
  display: z.enum(displays, { error: "supporters.errors.display" }).default("username"),
  displayName: z
    .string()
    .max(1000, { error: "supporters.errors.nameLength" })
    .trim()
    .refine((value) => codePoints(value) <= DISPLAY_NAME_MAX, { error: "supporters.errors.nameLength" })
    .refine((value) => !CONTROL_OR_BIDI.test(value), { error: "supporters.errors.plainText" })
    .default(""),
  emoji: z.enum(["", ...supporterEmoji], { error: "supporters.errors.emoji" }).default(""),
  message: z
    .string()
    .max(2000, { error: "supporters.errors.messageLength" })
    .trim()
    .refine((value) => codePoints(value) <= MESSAGE_MAX, { error: "supporters.errors.messageLength" })
    .refine((value) => !CONTROL_OR_BIDI.test(value), { error: "supporters.errors.plainText" })
    .default(""),
};

type ChoiceInput = { display: SupporterDisplay; displayName: string };

/** A display name is needed only when the supporter appears under it. */
export function requireNameWhenShown(choice: ChoiceInput, context: z.RefinementCtx) {
  if (choice.display === "name" && choice.displayName === "")
    context.addIssue({ code: "custom", path: ["displayName"], message: "supporters.errors.nameRequired" });
}

export const wallChoiceSchema = z.object(wallChoiceFields).superRefine(requireNameWhenShown);

export type WallChoice = z.output<typeof wallChoiceSchema>;

/** The stored shape (payments.supporterChoice, supporters): the name kept only when it is shown. */
export function toSupporterChoice(choice: WallChoice) {
  return {
    display: choice.display,
    name: choice.display === "name" ? choice.displayName : "",
    emoji: choice.emoji,
    message: choice.message,
  };
}

/** POST /fundraiser, intent "join": a support tier (its price is read from the database) and the wall choice. */
export const joinSchema = z
  .object({
    ...wallChoiceFields,
    // Checkout reads the tier and its price from the database and refuses an unknown key (404).
    tierKey: z
      .string()
      .regex(/^[a-z_]{1,40}$/, { error: "payments.errors.unknownItem" })
      .transform((key) => key as TierKey),
  })
  .superRefine(requireNameWhenShown);
