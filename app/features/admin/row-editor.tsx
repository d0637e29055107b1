import type { FormEvent, ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { DigestForm, type EditorResult } from "./digest-form";

/**
 * The page of an editor of one row (wiki page, gallery piece, coin pack): its title, a link to the public page
 * that shows it, the form carrying the digest it opened (its fields are the children) with its button, and for
 * a row that exists the deletion with its confirmation and the translated refusal (`inUse` fills its counts).
 */
export function RowEditor({
  title,
  viewTo,
  base,
  saved,
  result,
  onSubmit,
  submitLabel,
  deletion,
  children,
}: {
  title: string;
  /** The public page showing the row; absent for a new row. */
  viewTo?: string;
  base?: string;
  saved: boolean;
  result: EditorResult | undefined;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  /** The deletion's labels; absent for a new row. */
  deletion?: { confirm: string; button: string };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const refusal = result?.errors?.confirm;
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        {viewTo ? (
          <Link to={viewTo} className="underline">
            {t("admin.chapter.view")}
          </Link>
        ) : null}
      </div>
      <DigestForm base={base} result={saved && !result ? { saved: true } : result} onSubmit={onSubmit}>
        {children}
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {submitLabel}
        </button>
      </DigestForm>
      {deletion ? (
        // The box is required by the browser and checked by the action too.
        <Form
          method="post"
          className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-line p-4"
        >
          {refusal ? <FormAlert>{t(refusal, result?.inUse)}</FormAlert> : null}
          <input type="hidden" name="intent" value="delete" />
          <label className="flex min-h-11 items-center gap-2">
            <input type="checkbox" name="confirm" required className="h-5 w-5" />
            {deletion.confirm}
          </label>
          <button type="submit" className={buttonClass("outline")}>
            {deletion.button}
          </button>
        </Form>
      ) : null}
    </>
  );
}

/**
 * A row's key (an address, a slug): typed when the row is created, then shown as it is, for it never changes
 * (links, content files and payments know the row by it).
 */
export function KeyField({
  fixed,
  name,
  label,
  hint,
  value,
  maxLength,
  error,
}: {
  /** The key of a row that exists; undefined on the form for a new row. */
  fixed: string | undefined;
  name: string;
  label: string;
  hint: string;
  value: string;
  maxLength: number;
  error: string | undefined;
}) {
  return fixed !== undefined ? (
    <p className="flex flex-col gap-1 text-sm">
      <span className="font-display tracking-wide">{label}</span>
      <code>{fixed}</code>
    </p>
  ) : (
    <Field name={name} label={label} hint={hint} defaultValue={value} maxLength={maxLength} error={error} />
  );
}
