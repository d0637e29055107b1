import type { ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";

/**
 * The form that deletes an admin page's item: a box to tick first, then the button (`intent=delete`), with
 * the refusal the action answered (a translated message key, or `refusal` already written).
 */
export function DeleteForm({
  confirm,
  button,
  error,
  refusal,
}: {
  confirm: string;
  button: string;
  error?: string;
  refusal?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-line p-4">
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      {refusal ? <FormAlert>{refusal}</FormAlert> : null}
      <input type="hidden" name="intent" value="delete" />
      <label className="flex min-h-11 items-center gap-2">
        <input type="checkbox" name="confirm" required className="h-5 w-5" />
        {confirm}
      </label>
      <button type="submit" className={buttonClass("outline")}>
        {button}
      </button>
    </Form>
  );
}
