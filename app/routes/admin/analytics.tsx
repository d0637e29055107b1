import "~/i18n/full-catalogue";
import { z } from "zod";
import { type AnalyticsSort, analyticsOverview, analyticsSorts } from "~/features/admin/analytics.server";
import { FunnelChart, usePercent, useReadingTime } from "~/features/admin/analytics-charts";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { wholeNumber } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/analytics";

/** The page's query: an unknown sort, direction or page is dropped, never an error (a bookmarkable URL). */
const viewSchema = z.object({
  sort: z.enum(analyticsSorts).catch("number"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: wholeNumber(1, 10_000).catch(1),
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const view = viewSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  // Figures read best from the largest; the chapter number from the first.
  const descending = view.dir ? view.dir === "desc" : view.sort !== "number";
  return {
    ...(await analyticsOverview({ sort: view.sort, descending, page: view.page })),
    sort: view.sort,
    descending,
  };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

const columns = [
  "started",
  "finished",
  "completionRate",
  "averageSeconds",
  "reached",
  "unlocks",
  "coins",
  "visitorsStarted",
  "visitorsFinished",
] as const satisfies readonly AnalyticsSort[];

/** Each chapter's readers, completion, reading time, funnel, unlocks and coins, and the funnel drawn (ADR 42). */
export default function AdminAnalytics({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const percent = usePercent();
  const readingTime = useReadingTime();
  const { chapters, sort, descending, page, pages, funnel, firstReaders, firstVisitors } = loaderData;
  const link = (to: { sort: AnalyticsSort; descending: boolean; page: number }) =>
    `/admin/analytics?${new URLSearchParams({ sort: to.sort, dir: to.descending ? "desc" : "asc", page: String(to.page) })}`;
  const header = (key: AnalyticsSort, align: string) => (
    <th
      key={key}
      scope="col"
      className={`py-2 pr-3 ${align}`}
      aria-sort={sort === key ? (descending ? "descending" : "ascending") : undefined}
    >
      <Link
        to={link({ sort: key, descending: sort === key ? !descending : key !== "number", page: 1 })}
        className="underline"
      >
        {t(`admin.analytics.${key}`)}
      </Link>
    </th>
  );
  const figure = (chapter: (typeof chapters)[number], key: (typeof columns)[number]) =>
    key === "completionRate"
      ? percent(chapter.completionRate)
      : key === "averageSeconds"
        ? readingTime(chapter.averageSeconds)
        : format.number(chapter[key]);
  return (
    <>
      <DocumentTitle name={t("admin.analytics.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.analytics.title")}</h1>
      <p className="text-muted">{t("admin.analytics.intro")}</p>
      <Panel id="funnel" title={t("admin.analytics.funnel")}>
        <FunnelChart funnel={funnel} base={firstReaders} />
        <p className="mt-3 text-sm text-muted" data-testid="first-chapter-visitors">
          {t("admin.analytics.visitorsFirst", {
            started: format.number(firstVisitors.started),
            finished: format.number(firstVisitors.finished),
          })}
        </p>
      </Panel>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[60rem] text-left" data-testid="analytics-table">
          <caption className="sr-only">{t("admin.analytics.tableCaption")}</caption>
          <thead>
            <tr className="border-b border-line text-sm text-muted">
              {header("number", "")}
              <th scope="col" className="py-2 pr-3">
                {t("admin.analytics.chapterTitle")}
              </th>
              {columns.map((key) => header(key, "text-right"))}
            </tr>
          </thead>
          <tbody>
            {chapters.map((chapter) => (
              <tr key={chapter.id} className="border-b border-line" data-testid="analytics-chapter">
                <td className="py-2 pr-3">{chapter.number}</td>
                <th scope="row" className="py-2 pr-3 font-normal">
                  <Link to={`/admin/analytics/${chapter.id}`} className="underline">
                    {chapter.title}
                  </Link>
                </th>
                {columns.map((key) => (
                  <td key={key} className="py-2 pr-3 text-right" data-figure={key}>
                    {figure(chapter, key)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label={t("admin.pagination")} className="flex items-center justify-center gap-3">
          {page > 1 ? (
            <Link to={link({ sort, descending, page: page - 1 })} className={buttonClass("outline")}>
              {t("admin.previous")}
            </Link>
          ) : null}
          <span>{t("admin.pageOf", { page, pages })}</span>
          {page < pages ? (
            <Link to={link({ sort, descending, page: page + 1 })} className={buttonClass("outline")}>
              {t("admin.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
