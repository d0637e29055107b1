import type { FormEvent, ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { DigestForm, type DigestFormResult } from "./digest-form";

/**
 * The page of one admin item (a wiki page, a goal): its title, a link to where the site shows it, its form
 * saved from a digest (the fields in a grid, then `after`: a long text), and, once it exists, its deletion:
 * a form of its own posting `intent=delete`, which the action refuses unless the box is ticked
 * (`deleteIntent`, item-route.server.ts).
 */
export function ItemPage({
  texts,
  item,
  view,
  base,
  saved,
  result,
  onSubmit,
  fields,
  after,
}: {
  /** The catalogue's object of the kind's texts: `new`, `edit`, `create`, `save`, `deleteConfirm`, `delete`. */
  texts: "admin.wiki" | "admin.goals" | "admin.polls";
  /** The item as saved (its title), absent on the "new" page. */
  item?: { title: string };
  /** Where the site shows the item, if it does yet. */
  view?: string;
  base?: string;
  /** Just saved: the loader read `?saved` (the action sends the author there). */
  saved: boolean;
  result: DigestFormResult | undefined;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  fields: ReactNode;
  after: ReactNode;
}) {
  const { t } = useTranslation();
  const title = item ? t(`${texts}.edit`, { title: item.title }) : t(`${texts}.new`);
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        {view ? (
          <Link to={view} className="underline">
            {t("admin.chapter.view")}
          </Link>
        ) : null}
      </div>
      <DigestForm base={base} result={saved && !result ? { saved: true } : result} onSubmit={onSubmit}>
        <div className="grid gap-4 sm:grid-cols-2">{fields}</div>
        {after}
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {item ? t(`${texts}.save`) : t(`${texts}.create`)}
        </button>
      </DigestForm>
      {item ? (
        <Form
          method="post"
          className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-line p-4"
        >
          {result?.errors?.confirm ? <FormAlert>{t(result.errors.confirm)}</FormAlert> : null}
          <input type="hidden" name="intent" value="delete" />
          <label className="flex min-h-11 items-center gap-2">
            <input type="checkbox" name="confirm" required className="h-5 w-5" />
            {t(`${texts}.deleteConfirm`)}
          </label>
          <button type="submit" className={buttonClass("outline")}>
            {t(`${texts}.delete`)}
          </button>
        </Form>
      ) : null}
    </>
  );
}
