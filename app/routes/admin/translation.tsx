import "~/i18n/full-catalogue";
import { data, Form, redirect, useNavigation } from "react-router";
import { DeleteForm } from "~/features/admin/delete-form";
import { requireAuthor } from "~/features/auth/guards.server";
import {
  getTranslationForEdit,
  removeOtherTranslation,
  saveOtherTranslation,
} from "~/features/content/other-translations.server";
import {
  editorPath,
  fieldsOfForm,
  formValueOf,
  formValuesOf,
  otherTranslationSchema,
  translatedFields,
} from "~/features/content/translation-fields";
import { TRANSLATED_BODY_MAX } from "~/features/content/translation-schemas";
import { refreshContentRevision } from "~/features/site/revision.server";
import { isTranslationLanguage, translationKindOf } from "~/features/translations/languages";
import { languageNames } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice, TextAreaField } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/translation";

/** The longest key an original has: a goal's title, a wiki page's `section/slug`. */
const KEY_MAX = 300;

/** The original and language the address names (else 404). */
function placeOf(request: Request, params: { kind: string; lang: string }) {
  const key = new URL(request.url).searchParams.get("key") ?? "";
  const kind = translationKindOf(params.kind);
  if (!kind || !isTranslationLanguage(params.lang) || !key || key.length > KEY_MAX)
    throw data(null, { status: 404 });
  return { kind, key, language: params.lang };
}

/** One original's translation beside the original (read only), as chapters' are (ADR 98). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const { kind, key, language } = placeOf(request, params);
  const edit = await getTranslationForEdit(kind, key, language);
  if (!edit) throw data(null, { status: 404 });
  const { original, translation, mark } = edit;
  return {
    kind,
    key,
    language,
    original,
    mark,
    savedAt: translation?.savedAt,
    values: formValuesOf(kind, translation?.fields ?? {}, translation?.body ?? ""),
    saved: new URL(request.url).searchParams.has("saved"),
  };
}

type ActionResult = {
  errors?: Record<string, string>;
  values?: Record<string, string>;
  /** Saved by someone else since the editor opened it: theirs, shown under the author's own. */
  conflict?: { values: Record<string, string> | undefined };
};

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const { kind, key, language } = placeOf(request, params);
  const form = await readForm(request);
  const actor = { via: "admin", userId: author.id } as const;
  const back = editorPath(kind, key, language);
  // Removed once its box is ticked: the page shows the original again, with the note.
  if (form.get("intent") === "delete") {
    if (form.get("confirm") === "on" && (await removeOtherTranslation(kind, key, language, actor)))
      await refreshContentRevision();
    return redirect(back);
  }
  // Echoed back on a refusal, capped, so nothing typed is lost.
  const values = formValuesOf(
    kind,
    Object.fromEntries(
      translatedFields[kind].map((field) => [field.name, echoedValue(form, `field.${field.name}`, 12_000)]),
    ),
    echoedValue(form, "body", TRANSLATED_BODY_MAX + 1),
  );
  const parsed = parseForm(otherTranslationSchema(kind), form);
  if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, values }, 400);
  const { body, savedAt, ...rest } = parsed.data as Record<string, unknown> & {
    body: string;
    savedAt?: string;
  };
  const saved = await saveOtherTranslation(
    kind,
    key,
    language,
    { fields: fieldsOfForm(kind, rest), body },
    savedAt,
    actor,
  );
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`${back}&saved`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  const theirs = saved.current && formValuesOf(kind, saved.current.fields, saved.current.body);
  return data<ActionResult>({ conflict: { values: theirs }, values }, 409);
}

export default function AdminTranslation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const result = actionData as ActionResult | undefined;
  const { kind, language, original } = loaderData;
  const values = result?.values ?? loaderData.values;
  const errors = result?.errors ?? {};
  const language_ = languageNames[language];
  const title = t("admin.otherTranslation.title", { item: original.label, language: language_ });
  const fieldLabel = (name: string) => t(`admin.otherTranslation.fields.${name}`);
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="min-w-0 break-words font-display text-3xl text-primary">{title}</h1>
        <Link to="/admin/translations" className="underline">
          {t("admin.otherTranslation.back")}
        </Link>
      </div>
      <p data-testid="translation-mark" className="text-sm">
        {t(`admin.translations.marks.${loaderData.mark}`)}
      </p>
      {loaderData.saved && !result ? <FormNotice>{t("admin.otherTranslation.saved")}</FormNotice> : null}
      {result?.conflict ? <FormAlert>{t("admin.otherTranslation.conflict")}</FormAlert> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="original-title" className="flex min-w-0 flex-col gap-3" lang="en">
          <h2 id="original-title" className="font-display text-xl text-primary">
            {t("admin.translation.original")}
          </h2>
          <dl className="flex flex-col gap-2">
            {translatedFields[kind].map((field) => (
              <div key={field.name}>
                <dt className="font-display text-sm tracking-wide">{fieldLabel(field.name)}</dt>
                <dd className="whitespace-pre-wrap break-words">
                  {formValueOf(original.fields[field.name])}
                </dd>
              </div>
            ))}
          </dl>
          <pre
            // The original scrolls and holds no control: focusable, so a keyboard can scroll it.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by the keyboard
            tabIndex={0}
            className="max-h-[60vh] overflow-auto whitespace-pre-wrap rounded-md border border-line p-3 font-sans text-base"
          >
            {original.body}
          </pre>
        </section>
        <Form
          method="post"
          className="flex min-w-0 flex-col gap-5"
          aria-busy={navigation.state === "submitting"}
          key={`${loaderData.savedAt ?? "new"}-${result?.conflict ? "conflict" : ""}`}
        >
          <h2 className="font-display text-xl text-primary">
            {t("admin.translation.translation", { language: language_ })}
          </h2>
          {loaderData.savedAt ? <input type="hidden" name="savedAt" value={loaderData.savedAt} /> : null}
          {translatedFields[kind].map((field) => {
            const name = `field.${field.name}`;
            const common = {
              name,
              label: fieldLabel(field.name),
              defaultValue: values[name],
              error: errors[name],
              lang: language,
            };
            return field.shape === "line" ? (
              <Field key={name} {...common} maxLength={field.max} required={!field.optional} />
            ) : (
              <TextAreaField
                key={name}
                {...common}
                rows={field.shape === "lines" ? 6 : 3}
                hint={field.shape === "lines" ? t("admin.otherTranslation.oneALine") : undefined}
                required={!field.optional}
              />
            );
          })}
          <TextAreaField
            name="body"
            label={fieldLabel("body")}
            hint={t("admin.otherTranslation.bodyHint")}
            defaultValue={values.body}
            error={errors.body}
            rows={14}
            lang={language}
          />
          {result?.conflict?.values ? (
            <TextAreaField
              name="theirs"
              label={t("admin.otherTranslation.theirs")}
              defaultValue={result.conflict.values.body}
              readOnly
              rows={6}
            />
          ) : null}
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" className={buttonClass("primary")}>
              {t("admin.chapter.save")}
            </button>
          </div>
        </Form>
      </div>
      {loaderData.savedAt ? (
        <DeleteForm
          confirm={t("admin.otherTranslation.removeConfirm", { language: language_ })}
          button={t("admin.otherTranslation.remove", { language: language_ })}
        />
      ) : null}
    </>
  );
}
