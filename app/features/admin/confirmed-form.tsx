import type { ReactNode } from "react";
import { Form, useLocation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Field, FormAlert } from "~/ui/form";

/** What an admin action answers a form it refused: which form, why (message keys by field), what was typed. */
export type FormResult = {
  intent?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

/**
 * An admin form that changes a reader's account or money (ADR 40): its fields, an optional reason (kept in
 * the audit log), the confirmation box and its button. `result` is the action's answer, shown only on the
 * form that was sent.
 */
export function ConfirmedForm({
  intent,
  submit,
  confirmLabel,
  result,
  note,
  children,
}: {
  intent: string;
  submit: string;
  confirmLabel: string;
  result?: FormResult;
  note?: { label: string; hint: string; maxLength: number };
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const mine = result?.intent === intent ? result : undefined;
  // A new page (the redirect after a change is made) empties the form, so a second click changes nothing.
  const { key } = useLocation();
  return (
    <Form key={key} method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      {children}
      {note ? (
        <Field
          name="note"
          label={note.label}
          hint={note.hint}
          maxLength={note.maxLength}
          defaultValue={mine?.values?.note}
          error={mine?.errors?.note}
          required
        />
      ) : null}
      <label className="flex min-h-11 items-center gap-2">
        <input type="checkbox" name="confirm" required className="h-5 w-5" />
        {confirmLabel}
      </label>
      {mine?.errors?.confirm ? <FormAlert>{t(mine.errors.confirm)}</FormAlert> : null}
      <button type="submit" className={buttonClass("outline", "self-start")}>
        {submit}
      </button>
    </Form>
  );
}
