import "~/i18n/full-catalogue";
import { data } from "react-router";
import { DigestForm, type DigestFormResult, revalidateAfterConflict } from "~/features/admin/digest-form";
import { requireAuthor } from "~/features/auth/guards.server";
import { getLegalForEdit, saveLegal } from "~/features/site/settings-editing.server";
import { legalSchema, legalSlugs } from "~/features/site/site-form";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/legal";

/** `terms` or `privacy`; anything else is the ordinary 404. */
function slugOf(params: { slug: string }) {
  const slug = legalSlugs.find((known) => known === params.slug);
  if (!slug) throw data(null, { status: 404 });
  return slug;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const slug = slugOf(params);
  const page = await getLegalForEdit(slug);
  if (!page) throw data(null, { status: 404 });
  return { slug, ...page };
}

type ActionResult = DigestFormResult;

export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const slug = slugOf(params);
  const form = await readForm(request);
  const echo = {
    title: echoedValue(form, "title"),
    bodyMd: echoedValue(form, "bodyMd", 110_000),
    updatedAt: echoedValue(form, "updatedAt", 20),
  };
  const parsed = parseForm(legalSchema, form);
  if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, values: echo }, 400);
  const saved = await saveLegal(slug, parsed.data, { via: "admin", userId: author.id });
  if (saved.ok) return { saved: true } satisfies ActionResult;
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  return data<ActionResult>({ conflict: true, values: echo }, 409);
}

/** The terms of service and the privacy policy, each with the date it takes effect. */
export default function AdminLegal({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const { errors, onSubmit } = useFormValidation(legalSchema, result?.errors);
  const { slug } = loaderData;
  const values = { ...loaderData.values, ...result?.values };
  const title = t(`admin.legal.${slug}`);
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        <nav aria-label={t("admin.legal.pages")} className="flex gap-3">
          {legalSlugs.map((other) => (
            <Link
              key={other}
              to={`/admin/legal/${other}`}
              className="underline"
              aria-current={other === slug ? "page" : undefined}
            >
              {t(`admin.legal.${other}`)}
            </Link>
          ))}
          <Link to={`/${slug}`} className="underline">
            {t("admin.chapter.view")}
          </Link>
        </nav>
      </div>
      <DigestForm base={loaderData.base} result={result} onSubmit={onSubmit}>
        <Field
          name="title"
          label={t("admin.legal.title")}
          defaultValue={values.title}
          maxLength={200}
          error={errors.title}
        />
        <Field
          name="updatedAt"
          type="date"
          label={t("admin.legal.updatedAt")}
          hint={t("admin.legal.updatedAtHint")}
          defaultValue={values.updatedAt}
          error={errors.updatedAt}
        />
        <TextAreaField
          name="bodyMd"
          label={t("admin.legal.body")}
          defaultValue={values.bodyMd}
          rows={18}
          error={errors.bodyMd}
        />
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {t("admin.legal.save")}
        </button>
      </DigestForm>
    </>
  );
}
