import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { ImageField } from "~/features/admin/artwork-fields";
import { DeleteForm } from "~/features/admin/delete-form";
import { DigestForm, type DigestFormResult } from "~/features/admin/digest-form";
import { adminItemId } from "~/features/admin/item-id.server";
import { artworkChoices } from "~/features/admin/uploads.server";
import {
  createWikiPage,
  deleteWikiPage,
  getWikiPageForEdit,
  saveWikiPage,
} from "~/features/admin/wiki-editing.server";
import { WIKI_LIMITS, wikiSchema, wikiSectionChoices } from "~/features/admin/wiki-form";
import { requireAuthor } from "~/features/auth/guards.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, SelectField, TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/wiki-page";

const fields = [
  "section",
  "slug",
  "title",
  "summary",
  "order",
  "imageUrl",
  "revealsChapter",
  "bodyMd",
] as const;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const id = adminItemId(params);
  const [page, images] = await Promise.all([id ? getWikiPageForEdit(id) : undefined, artworkChoices()]);
  if (id && !page) throw data(null, { status: 404 });
  const row = page?.row;
  return {
    id,
    // Just saved (the action sends the author here with ?saved=1).
    saved: new URL(request.url).searchParams.has("saved"),
    base: page?.base,
    slug: row?.slug,
    images,
    values: {
      section: row?.section ?? "characters",
      slug: row?.slug ?? "",
      title: row?.title ?? "",
      summary: row?.summary ?? "",
      order: String(row?.sortOrder ?? 0),
      imageUrl: row?.imageUrl ?? "",
      revealsChapter: row?.revealsChapter ? String(row.revealsChapter) : "",
      bodyMd: row?.bodyMd ?? "",
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  const id = adminItemId(params);
  const form = await readForm(request);
  if (form.get("intent") === "delete") {
    if (id === undefined) throw data(null, { status: 404 });
    if (form.get("confirm") !== "on")
      return data<DigestFormResult>({ errors: { confirm: "admin.wiki.errors.confirm" } }, 400);
    const page = await getWikiPageForEdit(id);
    if (!page || !(await deleteWikiPage(id, actor))) throw data(null, { status: 404 });
    await refreshContentRevision();
    return redirect(`/admin/wiki?deleted=${encodeURIComponent(page.row.title)}`);
  }
  const values = Object.fromEntries(
    fields.map((field) => [field, echoedValue(form, field, field === "bodyMd" ? 110_000 : 500)]),
  );
  const refuse = (errors: Record<string, string>, status = 400) =>
    data<DigestFormResult>({ errors, values }, status);
  const parsed = parseForm(wikiSchema, form);
  if (!parsed.ok) return refuse(parsed.errors);
  if (id === undefined && !parsed.data.slug) return refuse({ slug: "admin.wiki.errors.slug" });
  const saved =
    id === undefined ? await createWikiPage(parsed.data, actor) : await saveWikiPage(id, parsed.data, actor);
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`/admin/wiki/${saved.id}?saved=1`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "slugTaken") return refuse({ slug: "admin.wiki.errors.slugTaken" }, 409);
  return data<DigestFormResult>({ conflict: true, values }, 409);
}

/** A wiki page: its section, address, title, summary, order, picture, the chapter that reveals it, its text. */
export default function AdminWikiPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as DigestFormResult | undefined;
  const { errors, onSubmit } = useFormValidation(wikiSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  const title = loaderData.id
    ? t("admin.wiki.edit", { title: loaderData.values.title })
    : t("admin.wiki.new");
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        {loaderData.slug ? (
          <Link to={`/wiki/${loaderData.values.section}/${loaderData.slug}`} className="underline">
            {t("admin.chapter.view")}
          </Link>
        ) : null}
      </div>
      <DigestForm
        base={loaderData.base}
        result={loaderData.saved && !result ? { saved: true } : result}
        onSubmit={onSubmit}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            name="section"
            label={t("admin.wiki.section")}
            defaultValue={values.section}
            error={errors.section}
          >
            {wikiSectionChoices.map((section) => (
              <option key={section} value={section}>
                {t(`wiki.sections.${section}.title`)}
              </option>
            ))}
          </SelectField>
          {loaderData.id ? (
            <p className="flex flex-col gap-1 text-sm">
              <span className="font-display tracking-wide">{t("admin.wiki.slug")}</span>
              <code>{loaderData.slug}</code>
            </p>
          ) : (
            <Field
              name="slug"
              label={t("admin.wiki.slug")}
              hint={t("admin.wiki.slugHint")}
              defaultValue={values.slug}
              maxLength={WIKI_LIMITS.slug}
              error={errors.slug}
            />
          )}
          <Field
            name="title"
            label={t("admin.wiki.pageTitle")}
            defaultValue={values.title}
            maxLength={WIKI_LIMITS.title}
            error={errors.title}
          />
          <Field
            name="summary"
            label={t("admin.wiki.summary")}
            defaultValue={values.summary}
            maxLength={WIKI_LIMITS.summary}
            error={errors.summary}
          />
          <Field
            name="order"
            type="number"
            label={t("admin.wiki.order")}
            defaultValue={values.order}
            error={errors.order}
          />
          <Field
            name="revealsChapter"
            type="number"
            min={1}
            label={t("admin.wiki.reveals")}
            hint={t("admin.wiki.revealsHint")}
            defaultValue={values.revealsChapter}
            error={errors.revealsChapter}
          />
          <ImageField
            name="imageUrl"
            label={t("admin.wiki.image")}
            value={values.imageUrl}
            error={errors.imageUrl}
            images={loaderData.images}
            empty={t("admin.chapter.artworkNone")}
          />
        </div>
        <TextAreaField
          name="bodyMd"
          label={t("admin.wiki.body")}
          defaultValue={values.bodyMd}
          rows={14}
          error={errors.bodyMd}
        />
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {loaderData.id ? t("admin.wiki.save") : t("admin.wiki.create")}
        </button>
      </DigestForm>
      {loaderData.id ? (
        <DeleteForm
          confirm={t("admin.wiki.deleteConfirm")}
          button={t("admin.wiki.delete")}
          error={result?.errors?.confirm}
        />
      ) : null}
    </>
  );
}
