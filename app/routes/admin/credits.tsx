import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { DigestForm, type DigestFormResult } from "~/features/admin/digest-form";
import { requireAuthor } from "~/features/auth/guards.server";
import { ACKNOWLEDGEMENTS_MAX_BYTES, creditsSchema } from "~/features/credits/credits-form";
import { saveAcknowledgements } from "~/features/credits/editing.server";
import { readAcknowledgements } from "~/features/credits/queries.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/credits";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return {
    saved: new URL(request.url).searchParams.has("saved"),
    acknowledgementsMd: await readAcknowledgements(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const form = await readForm(request);
  const parsed = parseForm(creditsSchema, form);
  if (!parsed.ok)
    return data<DigestFormResult>(
      {
        errors: parsed.errors,
        values: {
          acknowledgementsMd: echoedValue(form, "acknowledgementsMd", ACKNOWLEDGEMENTS_MAX_BYTES + 1000),
        },
      },
      400,
    );
  await saveAcknowledgements(parsed.data.acknowledgementsMd, { via: "admin", userId: author.id });
  await refreshContentRevision();
  return redirect("/admin/credits?saved=1");
}

/** The credits page's own text: the author's acknowledgements, below the First Humans' names. */
export default function AdminCredits({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as DigestFormResult | undefined;
  const { errors, onSubmit } = useFormValidation(creditsSchema, result?.errors);
  return (
    <>
      <DocumentTitle name={t("admin.credits.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.credits.title")}</h1>
        <Link to="/credits" className="underline">
          {t("admin.chapter.view")}
        </Link>
      </div>
      <p className="text-muted">{t("admin.credits.intro")}</p>
      <DigestForm result={loaderData.saved && !result ? { saved: true } : result} onSubmit={onSubmit}>
        <TextAreaField
          name="acknowledgementsMd"
          label={t("admin.credits.acknowledgements")}
          hint={t("admin.credits.hint")}
          defaultValue={result?.values?.acknowledgementsMd ?? loaderData.acknowledgementsMd}
          rows={12}
          error={errors.acknowledgementsMd}
        />
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {t("admin.credits.save")}
        </button>
      </DigestForm>
    </>
  );
}
