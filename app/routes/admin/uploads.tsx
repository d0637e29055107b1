import "~/i18n/full-catalogue";
import { data, Form, useNavigation } from "react-router";
import { requireAuthor } from "~/features/auth/guards.server";
import { siteUploads, uploadForAuthor } from "~/features/uploads/author-uploads.server";
import { useTranslation } from "~/i18n/react";
import { readForm } from "~/lib/forms";
import { getPreferences } from "~/lib/preferences.server";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, FormNotice } from "~/ui/form";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/uploads";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return { uploads: await siteUploads() };
}

type ActionResult = { error?: string; uploaded?: { name: string; created: boolean } };

/**
 * One image from the form's file field (ADR 33): checked by its content, re-encoded and stored once. A
 * refusal is the pipeline's translated message (its catalogue is the server's), and nothing is stored.
 */
export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const form = await readForm(request);
  const result = await uploadForAuthor(form.get("file"), author.id, getPreferences(request).language);
  if (!result.ok) return data<ActionResult>({ error: result.error }, { status: 400 });
  return { uploaded: { name: result.name, created: result.created } } satisfies ActionResult;
}

export default function AdminUploads({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const result = actionData as ActionResult | undefined;
  return (
    <>
      <DocumentTitle name={t("admin.uploads.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.uploads.title")}</h1>
      {result?.error ? <FormAlert>{result.error}</FormAlert> : null}
      {result?.uploaded ? (
        <FormNotice>
          {t(result.uploaded.created ? "admin.uploads.done" : "admin.uploads.again", {
            name: result.uploaded.name,
          })}
        </FormNotice>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1">
          <span className="font-display text-sm tracking-wide">{t("admin.uploads.file")}</span>
          <input
            type="file"
            name="file"
            required
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            className="min-h-11"
          />
          <span className="text-sm text-muted">{t("admin.uploads.hint")}</span>
        </label>
        <button type="submit" className={buttonClass("primary")} disabled={navigation.state === "submitting"}>
          {t("admin.uploads.submit")}
        </button>
      </Form>
      {loaderData.uploads.length ? (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="uploads">
          {loaderData.uploads.map((upload) => {
            const small = upload.variants.find((variant) => variant.format === "webp") ?? upload.variants[0];
            const fallback = [...upload.variants]
              .reverse()
              .find((variant) => ["png", "jpeg"].includes(variant.format));
            return (
              <li key={upload.id} className="flex flex-col gap-2 rounded-xl border border-line p-3">
                {small ? (
                  <img
                    src={`/media/${small.key}`}
                    width={small.width}
                    height={small.height}
                    alt={upload.originalFilename}
                    loading="lazy"
                    className="h-auto w-full rounded-md"
                  />
                ) : null}
                <p className="break-all text-sm">{upload.originalFilename}</p>
                <p className="text-sm text-muted">
                  {t("admin.uploads.size", { width: upload.width, height: upload.height })} ·{" "}
                  {format.date(upload.createdAt)}
                </p>
                {fallback ? (
                  <input
                    readOnly
                    aria-label={t("admin.uploads.address", { name: upload.originalFilename })}
                    value={`/media/${fallback.key}`}
                    className="min-h-11 rounded-md border border-line bg-transparent px-2 font-mono text-xs"
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-muted">{t("admin.uploads.none")}</p>
      )}
    </>
  );
}
