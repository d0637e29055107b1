import type { SupporterDisplay } from "#db/schema";

// The choices of the supporters-wall form, apart from its schema (wall-choice.ts): the form's fields need
// them on every page that shows the form, zod only once the form is used (ui/form.tsx useFormValidation).

export const displays = [
  "username",
  "name",
  "anonymous",
  "hidden",
] as const satisfies readonly SupporterDisplay[];

/** The emoji a supporter may pick: a short, on-theme list (radio buttons, so no free text). */
export const supporterEmoji = ["🦇", "🌙", "🩸", "🥀", "🕯️", "🗝️", "📜", "🔮", "🍷", "🖤", "🌹", "🦉"] as const;

export const DISPLAY_NAME_MAX = 40;
export const MESSAGE_MAX = 140;
