import "~/i18n/full-catalogue";
import { data } from "react-router";
import { DigestForm, type DigestFormResult, revalidateAfterConflict } from "~/features/admin/digest-form";
import { requireAuthor } from "~/features/auth/guards.server";
import { getSiteForEdit, saveSite } from "~/features/site/settings-editing.server";
import { SITE_LIMITS, siteFields, siteSchema } from "~/features/site/site-form";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, TextAreaField, useFormValidation } from "~/ui/form";
import type { Route } from "./+types/site";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return getSiteForEdit();
}

type ActionResult = DigestFormResult;

/** The posted fields, echoed back on a refusal so nothing typed is lost (capped like every echo). */
const echo = (form: FormData) =>
  Object.fromEntries(
    siteFields.map((field) => [field, echoedValue(form, field, field === "aboutMd" ? 60_000 : 2_100)]),
  );

export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const form = await readForm(request);
  const parsed = parseForm(siteSchema, form);
  if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, values: echo(form) }, 400);
  const saved = await saveSite(parsed.data, { via: "admin", userId: author.id });
  if (!saved.ok) return data<ActionResult>({ conflict: true, values: echo(form) }, 409);
  return { saved: true } satisfies ActionResult;
}

const shortFields = [
  ["title", SITE_LIMITS.short],
  ["tagline", SITE_LIMITS.tagline],
  ["author", SITE_LIMITS.short],
  ["location", SITE_LIMITS.short],
  ["role", SITE_LIMITS.short],
  ["email", 254],
  ["socialLabel", SITE_LIMITS.short],
  ["socialUrl", SITE_LIMITS.url],
  ["communityLabel", SITE_LIMITS.short],
  ["communityUrl", SITE_LIMITS.url],
] as const;

/** The site's settings: what the header, the home page, the table of contents and /about show. */
export default function AdminSite({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const { errors, onSubmit } = useFormValidation(siteSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values } as Record<string, string | number>;
  return (
    <>
      <DocumentTitle name={t("admin.site.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.site.title")}</h1>
      <DigestForm base={loaderData.base} result={result} onSubmit={onSubmit}>
        <div className="grid gap-4 sm:grid-cols-2">
          {shortFields.map(([name, max]) => (
            <Field
              key={name}
              name={name}
              type={name === "email" ? "email" : name.endsWith("Url") ? "url" : "text"}
              label={t(`admin.site.fields.${name}`)}
              defaultValue={String(values[name] ?? "")}
              maxLength={max}
              error={errors[name]}
            />
          ))}
          <Field
            name="startedYear"
            type="number"
            min={1900}
            max={2100}
            label={t("admin.site.fields.startedYear")}
            defaultValue={String(values.startedYear ?? "")}
            error={errors.startedYear}
          />
        </div>
        <TextAreaField
          name="synopsis"
          label={t("admin.site.fields.synopsis")}
          hint={t("admin.site.synopsisHint")}
          defaultValue={String(values.synopsis ?? "")}
          maxLength={SITE_LIMITS.synopsis}
          rows={4}
          error={errors.synopsis}
        />
        <TextAreaField
          name="aboutMd"
          label={t("admin.site.fields.aboutMd")}
          hint={t("admin.site.aboutHint")}
          defaultValue={String(values.aboutMd ?? "")}
          rows={12}
          error={errors.aboutMd}
        />
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {t("admin.site.save")}
        </button>
      </DigestForm>
    </>
  );
}
