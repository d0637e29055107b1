import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { EditorResult } from "~/features/admin/digest-form";
import { revalidateAfterConflict } from "~/features/admin/digest-form";
import { editorAction } from "~/features/admin/editor-action.server";
import { rowIdParam } from "~/features/admin/route-params";
import { KeyField, RowEditor } from "~/features/admin/row-editor";
import { requireAuthor } from "~/features/auth/guards.server";
import { ImageChoiceField } from "~/features/chapters/artwork-fields";
import { artworkChoices } from "~/features/uploads/author-uploads.server";
import {
  createWikiPage,
  deleteWikiPage,
  getWikiPageForEdit,
  saveWikiPage,
} from "~/features/wiki/wiki-editing.server";
import { WIKI_LIMITS, wikiSchema, wikiSectionChoices } from "~/features/wiki/wiki-form";
import { useTranslation } from "~/i18n/react";
import { readForm } from "~/lib/forms";
import { Field, SelectField, TextAreaField, useFormValidation } from "~/ui/form";
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
  const id = rowIdParam(params.id);
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

export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  return editorAction(await readForm(request), {
    id: rowIdParam(params.id),
    schema: wikiSchema,
    fields,
    echo: (field) => (field === "bodyMd" ? 110_000 : 500),
    key: {
      field: "slug",
      of: (input) => input.slug,
      invalid: "admin.wiki.errors.slug",
      taken: "admin.wiki.errors.slugTaken",
    },
    confirmMessage: "admin.wiki.errors.confirm",
    create: (input) => createWikiPage(input, actor),
    save: (id, input) => saveWikiPage(id, input, actor),
    remove: (id) => deleteWikiPage(id, actor),
    listPath: "/admin/wiki",
    rowPath: (id) => `/admin/wiki/${id}`,
  });
}

/** A wiki page: its section, address, title, summary, order, picture, the chapter that reveals it, its text. */
export default function AdminWikiPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as EditorResult | undefined;
  const { errors, onSubmit } = useFormValidation(wikiSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  const exists = loaderData.id !== undefined;
  return (
    <RowEditor
      title={exists ? t("admin.wiki.edit", { title: loaderData.values.title }) : t("admin.wiki.new")}
      viewTo={loaderData.slug && `/wiki/${loaderData.values.section}/${loaderData.slug}`}
      base={loaderData.base}
      saved={loaderData.saved}
      result={result}
      onSubmit={onSubmit}
      submitLabel={exists ? t("admin.wiki.save") : t("admin.wiki.create")}
      deletion={
        exists ? { confirm: t("admin.wiki.deleteConfirm"), button: t("admin.wiki.delete") } : undefined
      }
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
        <KeyField
          fixed={loaderData.slug}
          name="slug"
          label={t("admin.wiki.slug")}
          hint={t("admin.wiki.slugHint")}
          value={values.slug}
          maxLength={WIKI_LIMITS.slug}
          error={errors.slug}
        />
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
        <ImageChoiceField
          name="imageUrl"
          label={t("admin.wiki.image")}
          value={values.imageUrl}
          error={errors.imageUrl}
          images={loaderData.images}
          none={t("admin.chapter.artworkNone")}
        />
      </div>
      <TextAreaField
        name="bodyMd"
        label={t("admin.wiki.body")}
        defaultValue={values.bodyMd}
        rows={14}
        error={errors.bodyMd}
      />
    </RowEditor>
  );
}
