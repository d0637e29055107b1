import "~/i18n/full-catalogue";
import { adminOverview } from "~/features/admin/chapters.server";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return adminOverview();
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { chapters, readers, upcoming } = loaderData;
  return (
    <>
      <DocumentTitle name={t("admin.overview.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.overview.title")}</h1>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="admin-counts">
        {(
          [
            ["published", chapters.published],
            ["scheduled", chapters.scheduled],
            ["draft", chapters.draft],
            ["readers", readers],
          ] as const
        ).map(([key, value]) => (
          <div key={key} className="rounded-xl border border-line bg-[color:var(--surface)] p-4">
            <dt className="text-sm text-muted">{t(`admin.overview.${key}`)}</dt>
            <dd className="font-display text-2xl">{format.number(value)}</dd>
          </div>
        ))}
      </dl>
      <Panel id="upcoming" title={t("admin.overview.upcoming")}>
        {upcoming.length ? (
          <ul className="flex flex-col gap-2">
            {upcoming.map((chapter) => (
              <li key={chapter.number} className="flex flex-wrap justify-between gap-x-4">
                <Link to={`/admin/chapters?q=${encodeURIComponent(chapter.title)}`} className="underline">
                  {t("admin.chapters.numbered", { number: chapter.number, title: chapter.title })}
                </Link>
                <time dateTime={chapter.releaseAt} className="text-muted">
                  {format.date(chapter.releaseAt, { dateStyle: "medium", timeStyle: "short" })}
                </time>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted">{t("admin.overview.noUpcoming")}</p>
        )}
      </Panel>
    </>
  );
}
