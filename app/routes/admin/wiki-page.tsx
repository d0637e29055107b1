import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { DigestFormResult } from "~/features/admin/digest-form";
import { ItemPage } from "~/features/admin/item-page";
import { deleteIntent, itemAnswers, rowIdParam } from "~/features/admin/item-route.server";
import { artworkChoices } from "~/features/admin/uploads.server";
import {
  createWikiPage,
  deleteWikiPage,
  getWikiPageForEdit,
  saveWikiPage,
} from "~/features/admin/wiki-editing.server";
import { WIKI_LIMITS, wikiSchema, wikiSectionChoices } from "~/features/admin/wiki-form";
import { requireAuthor } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
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
  const id = rowIdParam(params);
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
  const id = rowIdParam(params);
  const form = await readForm(request);
  if (form.get("intent") === "delete")
    return deleteIntent(id, form, {
      confirm: "admin.wiki.errors.confirm",
      remove: async (page) => {
        const opened = await getWikiPageForEdit(page);
        return opened && (await deleteWikiPage(page, actor)) ? opened.row.title : undefined;
      },
      list: "/admin/wiki",
    });
  const {
    refuse,
    conflict,
    saved: answerSaved,
  } = itemAnswers(form, fields, { field: "bodyMd", max: 110_000 });
  const parsed = parseForm(wikiSchema, form);
  if (!parsed.ok) return refuse(parsed.errors);
  if (id === undefined && !parsed.data.slug) return refuse({ slug: "admin.wiki.errors.slug" });
  const saved =
    id === undefined ? await createWikiPage(parsed.data, actor) : await saveWikiPage(id, parsed.data, actor);
  if (saved.ok) return answerSaved(`/admin/wiki/${saved.id}`);
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "slugTaken") return refuse({ slug: "admin.wiki.errors.slugTaken" }, 409);
  return conflict();
}

/** A wiki page: its section, address, title, summary, order, picture, the chapter that reveals it, its text. */
export default function AdminWikiPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as DigestFormResult | undefined;
  const { errors, onSubmit } = useFormValidation(wikiSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  const images =
    values.imageUrl && !loaderData.images.some((image) => image.url === values.imageUrl)
      ? [{ url: values.imageUrl, label: values.imageUrl }, ...loaderData.images]
      : loaderData.images;
  return (
    <ItemPage
      texts="admin.wiki"
      item={loaderData.id ? { title: loaderData.values.title } : undefined}
      view={loaderData.slug ? `/wiki/${loaderData.values.section}/${loaderData.slug}` : undefined}
      base={loaderData.base}
      saved={loaderData.saved}
      result={result}
      onSubmit={onSubmit}
      fields={
        <>
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
          <SelectField
            name="imageUrl"
            label={t("admin.wiki.image")}
            defaultValue={values.imageUrl}
            error={errors.imageUrl}
          >
            <option value="">{t("admin.chapter.artworkNone")}</option>
            {images.map((image) => (
              <option key={image.url} value={image.url}>
                {image.label}
              </option>
            ))}
          </SelectField>
        </>
      }
      after={
        <TextAreaField
          name="bodyMd"
          label={t("admin.wiki.body")}
          defaultValue={values.bodyMd}
          rows={14}
          error={errors.bodyMd}
        />
      }
    />
  );
}
