import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";

/**
 * An admin item's deletion (a wiki page, a goal): a form of its own posting `intent=delete`, which the action
 * refuses unless the box confirming it is ticked (`error`: the refusal's message key).
 */
export function DeleteForm({
  error,
  confirmLabel,
  buttonLabel,
}: {
  error: string | undefined;
  confirmLabel: string;
  buttonLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-line p-4">
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      <input type="hidden" name="intent" value="delete" />
      <label className="flex min-h-11 items-center gap-2">
        <input type="checkbox" name="confirm" required className="h-5 w-5" />
        {confirmLabel}
      </label>
      <button type="submit" className={buttonClass("outline")}>
        {buttonLabel}
      </button>
    </Form>
  );
}
