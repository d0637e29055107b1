import "~/i18n/full-catalogue";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listGalleryForAdmin } from "~/features/gallery/gallery-editing.server";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import type { Route } from "./+types/gallery";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const deleted = new URL(request.url).searchParams.get("deleted")?.slice(0, 120);
  return { pieces: await listGalleryForAdmin(), deleted };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The gallery's pieces in the order /gallery shows them, each with its picture, address and order. */
export default function AdminGallery({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <DocumentTitle name={t("admin.gallery.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.gallery.title")}</h1>
        <Link to="/admin/gallery/new" className={buttonClass("primary")}>
          {t("admin.gallery.new")}
        </Link>
      </div>
      {loaderData.deleted ? (
        <FormNotice>{t("admin.gallery.deleted", { title: loaderData.deleted })}</FormNotice>
      ) : null}
      <Panel id="gallery-pieces" title={t("admin.gallery.pieces", { count: loaderData.pieces.length })}>
        {loaderData.pieces.length === 0 ? (
          <p className="text-muted italic">{t("gallery.empty")}</p>
        ) : (
          <ol className="flex flex-col divide-y divide-line" data-testid="admin-gallery">
            {loaderData.pieces.map((piece) => (
              <li key={piece.id} className="flex items-center gap-4 py-2">
                <img
                  src={piece.imageUrl}
                  alt=""
                  width={96}
                  height={64}
                  loading="lazy"
                  className="aspect-[3/2] w-24 shrink-0 rounded-md border border-line object-cover"
                />
                <div className="flex min-w-0 flex-col gap-1">
                  <Link to={`/admin/gallery/${piece.id}`} className="underline">
                    {piece.title}
                  </Link>
                  <span className="text-sm text-muted">
                    <code className="break-all">{piece.slug}</code> ·{" "}
                    {t("admin.gallery.orderShort", { order: piece.sortOrder })}
                  </span>
                </div>
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </>
  );
}
