import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { EditorResult } from "~/features/admin/digest-form";
import { revalidateAfterConflict } from "~/features/admin/digest-form";
import { editorAction } from "~/features/admin/editor-action.server";
import { rowIdParam } from "~/features/admin/route-params";
import { KeyField, RowEditor } from "~/features/admin/row-editor";
import { requireAuthor } from "~/features/auth/guards.server";
import { ImageChoiceField } from "~/features/chapters/artwork-fields";
import {
  createGalleryItem,
  deleteGalleryItem,
  getGalleryItemForEdit,
  saveGalleryItem,
} from "~/features/gallery/gallery-editing.server";
import { GALLERY_LIMITS, gallerySchema } from "~/features/gallery/gallery-form";
import { artworkChoices } from "~/features/uploads/author-uploads.server";
import { useTranslation } from "~/i18n/react";
import { readForm } from "~/lib/forms";
import { Field, TextAreaField, useFormValidation } from "~/ui/form";
import type { Route } from "./+types/gallery-item";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const id = rowIdParam(params.id);
  const [piece, images] = await Promise.all([id ? getGalleryItemForEdit(id) : undefined, artworkChoices()]);
  if (id && !piece) throw data(null, { status: 404 });
  const row = piece?.row;
  return {
    id,
    // Just saved (the action sends the author here with ?saved=1).
    saved: new URL(request.url).searchParams.has("saved"),
    base: piece?.base,
    slug: row?.slug,
    images,
    values: {
      slug: row?.slug ?? "",
      title: row?.title ?? "",
      imageUrl: row?.imageUrl ?? "",
      descriptionMd: row?.descriptionMd ?? "",
      order: String(row?.sortOrder ?? 0),
    },
  };
}

export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  return editorAction(await readForm(request), {
    id: rowIdParam(params.id),
    schema: gallerySchema,
    fields: ["slug", "title", "imageUrl", "descriptionMd", "order"],
    echo: (field) => (field === "descriptionMd" ? 30_000 : 500),
    key: {
      field: "slug",
      of: (input) => input.slug,
      invalid: "admin.gallery.errors.slug",
      taken: "admin.gallery.errors.slugTaken",
    },
    confirmMessage: "admin.gallery.errors.confirm",
    create: (input) => createGalleryItem(input, actor),
    save: (id, input) => saveGalleryItem(id, input, actor),
    remove: (id) => deleteGalleryItem(id, actor),
    listPath: "/admin/gallery",
    rowPath: (id) => `/admin/gallery/${id}`,
  });
}

/** A gallery piece: its address (set once), title, picture from the uploads, order and description. */
export default function AdminGalleryItem({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as EditorResult | undefined;
  const { errors, onSubmit } = useFormValidation(gallerySchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  const exists = loaderData.id !== undefined;
  return (
    <RowEditor
      title={exists ? t("admin.gallery.edit", { title: loaderData.values.title }) : t("admin.gallery.new")}
      viewTo={exists ? "/gallery" : undefined}
      base={loaderData.base}
      saved={loaderData.saved}
      result={result}
      onSubmit={onSubmit}
      submitLabel={exists ? t("admin.gallery.save") : t("admin.gallery.create")}
      deletion={
        exists ? { confirm: t("admin.gallery.deleteConfirm"), button: t("admin.gallery.delete") } : undefined
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <KeyField
          fixed={loaderData.slug}
          name="slug"
          label={t("admin.gallery.slug")}
          hint={t("admin.gallery.slugHint")}
          value={values.slug}
          maxLength={GALLERY_LIMITS.slug}
          error={errors.slug}
        />
        <Field
          name="title"
          label={t("admin.gallery.pieceTitle")}
          defaultValue={values.title}
          maxLength={GALLERY_LIMITS.title}
          error={errors.title}
        />
        <ImageChoiceField
          name="imageUrl"
          label={t("admin.gallery.image")}
          hint={t("admin.gallery.imageHint")}
          value={values.imageUrl}
          error={errors.imageUrl}
          images={loaderData.images}
          none={t("admin.gallery.imageNone")}
        />
        <Field
          name="order"
          type="number"
          min={-GALLERY_LIMITS.order}
          max={GALLERY_LIMITS.order}
          label={t("admin.gallery.order")}
          hint={t("admin.gallery.orderHint")}
          defaultValue={values.order}
          error={errors.order}
        />
      </div>
      {loaderData.values.imageUrl ? (
        <img
          src={loaderData.values.imageUrl}
          alt={t("admin.gallery.current")}
          width={300}
          height={200}
          className="aspect-[3/2] w-full max-w-xs rounded-md border border-line object-cover"
        />
      ) : null}
      <TextAreaField
        name="descriptionMd"
        label={t("admin.gallery.description")}
        defaultValue={values.descriptionMd}
        rows={8}
        error={errors.descriptionMd}
      />
    </RowEditor>
  );
}
