import { useTranslation } from "~/i18n/react";
import { Field } from "~/ui/form";
import type { WallChoice } from "./wall-choice";
import { DISPLAY_NAME_MAX, displays, MESSAGE_MAX, supporterEmoji } from "./wall-choice-options";

type ChoiceDefaults = Partial<Omit<WallChoice, "emoji"> & { emoji: string }>;

const errorClass = "text-sm text-[#b42318] dark:text-[#ff8a80]";

function FieldError({ id, error }: { id: string; error?: string }) {
  const { t } = useTranslation();
  return error ? (
    <p id={id} className={errorClass}>
      {t(error)}
    </p>
  ) : null;
}

/**
 * How to appear on the wall: username, display name, "Anonymous" or not listed; an emoji; a public
 * message. The join forms, the gift form and the account's editor share these fields and their schema
 * (wall-choice.ts). `idPrefix` keeps ids unique when several forms are on one page.
 */
export function WallChoiceFields({
  idPrefix,
  defaults,
  errors = {},
}: {
  idPrefix: string;
  defaults?: ChoiceDefaults;
  errors?: Record<string, string>;
}) {
  const { t } = useTranslation();
  const id = (name: string) => `${idPrefix}-${name}`;
  const display = defaults?.display ?? "username";
  return (
    <div className="flex flex-col gap-4">
      <fieldset
        className="flex flex-col gap-1"
        aria-describedby={errors.display ? id("display-error") : undefined}
      >
        <legend className="mb-1 font-display text-sm tracking-wide">{t("supporters.choice.display")}</legend>
        {displays.map((value) => (
          <label key={value} className="flex min-h-8 items-center gap-2">
            <input
              type="radio"
              name="display"
              value={value}
              defaultChecked={value === display}
              className="h-5 w-5 accent-[color:var(--primary)]"
            />
            {t(`supporters.choice.displays.${value}`)}
          </label>
        ))}
        <FieldError id={id("display-error")} error={errors.display} />
      </fieldset>
      <Field
        name="displayName"
        id={id("displayName")}
        label={t("supporters.choice.displayName")}
        hint={t("supporters.choice.displayNameHint", { max: DISPLAY_NAME_MAX })}
        maxLength={DISPLAY_NAME_MAX}
        autoComplete="nickname"
        defaultValue={defaults?.displayName ?? ""}
        error={errors.displayName}
      />
      <fieldset aria-describedby={errors.emoji ? id("emoji-error") : undefined}>
        <legend className="mb-1 font-display text-sm tracking-wide">{t("supporters.choice.emoji")}</legend>
        <div className="flex flex-wrap gap-1">
          <label className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-md border border-line px-2 has-[:checked]:border-primary has-[:checked]:bg-[color:var(--line)] has-[:focus-visible]:outline-2">
            <input type="radio" name="emoji" value="" defaultChecked={!defaults?.emoji} className="sr-only" />
            <span className="text-sm">{t("supporters.choice.noEmoji")}</span>
          </label>
          {supporterEmoji.map((emoji) => (
            <label
              key={emoji}
              className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-md border border-line text-xl has-[:checked]:border-primary has-[:checked]:bg-[color:var(--line)] has-[:focus-visible]:outline-2"
            >
              <input
                type="radio"
                name="emoji"
                value={emoji}
                defaultChecked={defaults?.emoji === emoji}
                className="sr-only"
              />
              <span>{emoji}</span>
            </label>
          ))}
        </div>
        <FieldError id={id("emoji-error")} error={errors.emoji} />
      </fieldset>
      <Field
        name="message"
        id={id("message")}
        label={t("supporters.choice.message")}
        hint={t("supporters.choice.messageHint", { max: MESSAGE_MAX })}
        maxLength={MESSAGE_MAX}
        defaultValue={defaults?.message ?? ""}
        error={errors.message}
      />
    </div>
  );
}
