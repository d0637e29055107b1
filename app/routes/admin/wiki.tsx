import "~/i18n/full-catalogue";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listWikiPages } from "~/features/wiki/wiki-editing.server";
import { wikiSectionChoices } from "~/features/wiki/wiki-form";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import type { Route } from "./+types/wiki";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const deleted = new URL(request.url).searchParams.get("deleted")?.slice(0, 120);
  return { pages: await listWikiPages(), deleted };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The wiki's pages by section, each with its order and the chapter that reveals it. */
export default function AdminWiki({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <DocumentTitle name={t("admin.wiki.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.wiki.title")}</h1>
        <Link to="/admin/wiki/new" className={buttonClass("primary")}>
          {t("admin.wiki.new")}
        </Link>
      </div>
      {loaderData.deleted ? (
        <FormNotice>{t("admin.wiki.deleted", { title: loaderData.deleted })}</FormNotice>
      ) : null}
      {wikiSectionChoices.map((section) => (
        <Panel key={section} id={`wiki-${section}`} title={t(`wiki.sections.${section}.title`)}>
          <ul className="flex flex-col divide-y divide-line" data-testid={`wiki-${section}`}>
            {loaderData.pages
              .filter((page) => page.section === section)
              .map((page) => (
                <li key={page.id} className="flex flex-wrap items-baseline justify-between gap-x-4 py-2">
                  <Link to={`/admin/wiki/${page.id}`} className="underline">
                    {page.title}
                  </Link>
                  <span className="text-sm text-muted">
                    <code>{`/wiki/${section}/${page.slug}`}</code> ·{" "}
                    {t("admin.wiki.orderShort", { order: page.sortOrder })}
                    {page.revealsChapter
                      ? ` · ${t("admin.wiki.revealsShort", { number: page.revealsChapter })}`
                      : ""}
                  </span>
                </li>
              ))}
          </ul>
        </Panel>
      ))}
    </>
  );
}
