import "~/i18n/full-catalogue";
import { data } from "react-router";
import { chapterAnalytics } from "~/features/admin/analytics.server";
import { DropOffChart, usePercent, useReadingTime } from "~/features/admin/analytics-charts";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { COMPLETION_THRESHOLD } from "~/features/reader/progress";
import { useTranslation } from "~/i18n/react";
import { parseId } from "~/lib/parse";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/analytics-chapter";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const id = parseId(params.id);
  const [chapter] = id === undefined ? [] : await chapterAnalytics(id);
  if (!chapter) throw data(null, { status: 404 });
  return { chapter, finishedAt: COMPLETION_THRESHOLD };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** One chapter's figures and where its readers stop (ADR 42). */
export default function AdminChapterAnalytics({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const percent = usePercent();
  const readingTime = useReadingTime();
  const { chapter, finishedAt } = loaderData;
  const name = t("admin.chapters.numbered", { number: chapter.number, title: chapter.title });
  const figures = [
    ["started", format.number(chapter.started)],
    ["finished", format.number(chapter.finished)],
    ["completionRate", percent(chapter.completionRate)],
    ["averageSeconds", readingTime(chapter.averageSeconds)],
    ["reached", format.number(chapter.reached)],
    ["unlocks", format.number(chapter.unlocks)],
    ["coins", format.number(chapter.coins)],
    ["visitorsStarted", format.number(chapter.visitorsStarted)],
    ["visitorsFinished", format.number(chapter.visitorsFinished)],
  ] as const;
  return (
    <>
      <DocumentTitle name={t("admin.analytics.chapterPage", { name })} />
      <Link to="/admin/analytics" className="self-start underline">
        {t("admin.analytics.back")}
      </Link>
      <h1 className="font-display text-3xl text-primary">{t("admin.analytics.chapterPage", { name })}</h1>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="chapter-figures">
        {figures.map(([key, value]) => (
          <div key={key} className="rounded-xl border border-line bg-[color:var(--surface)] p-4">
            <dt className="text-sm text-muted">{t(`admin.analytics.${key}`)}</dt>
            <dd className="font-display text-2xl" data-figure={key}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <Panel id="drop-off" title={t("admin.analytics.dropOff")}>
        <p className="mb-3 text-sm text-muted">
          {t("admin.analytics.dropOffIntro", { percent: finishedAt })}
        </p>
        <DropOffChart dropOff={chapter.dropOff} finishedAt={finishedAt} />
      </Panel>
      <Link to={`/admin/chapters/${chapter.id}`} className="self-start underline">
        {t("admin.analytics.edit")}
      </Link>
    </>
  );
}
