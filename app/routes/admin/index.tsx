import "~/i18n/full-catalogue";
import type { ReactNode } from "react";
import { BarChart } from "~/features/admin/bar-chart";
import { getOverview } from "~/features/admin/overview.server";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { GoalProgress } from "~/features/fundraiser/progress";
import { useTranslation } from "~/i18n/react";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return getOverview();
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** One figure of the overview: its name, its value, and the list behind it. */
function Figure({
  label,
  value,
  to,
  detail,
}: {
  label: string;
  value: string;
  to: string;
  detail?: ReactNode;
}) {
  return (
    <div className="rounded-xl border border-line bg-[color:var(--surface)] p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd>
        <Link to={to} className="font-display text-2xl underline decoration-1 underline-offset-4">
          {value}
        </Link>
        {detail ? <span className="block text-sm text-muted">{detail}</span> : null}
      </dd>
    </div>
  );
}

/** The author's dashboard: readers, money, supporters, goals, orders to ship, chapters. */
export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { readers, readingChart, revenue, supporters, ordersToShip, goals, chapters, accounts, upcoming } =
    loaderData;
  const readingTime = (seconds: number) =>
    seconds < 3600
      ? t("admin.overview.minutes", { minutes: format.number(Math.round(seconds / 60)) })
      : t("admin.overview.hours", { hours: format.number(Math.round(seconds / 360) / 10) });
  const shortDay = (day: string) =>
    format.date(`${day}T12:00:00Z`, { month: "short", day: "numeric", timeZone: "UTC" });
  return (
    <>
      <DocumentTitle name={t("admin.overview.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.overview.title")}</h1>
      <Panel id="overview-readers" title={t("admin.overview.readersTitle")}>
        <dl className="grid gap-4 sm:grid-cols-3" data-testid="overview-readers">
          {readers.map((window) => (
            <Figure
              key={window.days}
              label={t(`admin.overview.windows.${window.days}`)}
              value={format.number(window.readers)}
              to="/admin/analytics"
              detail={`${readingTime(window.seconds)} · ${t("admin.overview.joined", { count: window.joined })}`}
            />
          ))}
        </dl>
        <BarChart
          title={t("admin.overview.readingChart")}
          description={t("admin.overview.readingChartDescription", { days: readingChart.length })}
          categories={readingChart.map((entry) => shortDay(entry.day))}
          series={[
            {
              name: t("admin.overview.readersSeries"),
              values: readingChart.map((entry) => entry.readers),
              tone: "primary",
            },
          ]}
          format={(value) => format.number(value)}
        />
      </Panel>
      <Panel id="overview-revenue" title={t("admin.overview.revenueTitle")}>
        {revenue.map((table) => (
          <div key={table.currency} className="flex flex-col gap-4">
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="overview-revenue">
              {table.sources.map((source) => (
                <Figure
                  key={source.kind}
                  label={t(`admin.money.kinds.${source.kind}`)}
                  value={format.money(source.thisMonth, table.currency)}
                  to={`/admin/payments?kind=${source.kind}`}
                  detail={t("admin.overview.lastMonth", {
                    amount: format.money(source.lastMonth, table.currency),
                  })}
                />
              ))}
            </dl>
            <BarChart
              title={t("admin.overview.revenueChart", { currency: table.currency })}
              description={t("admin.overview.revenueChartDescription")}
              categories={table.sources.map((source) => t(`admin.money.kinds.${source.kind}`))}
              series={[
                {
                  name: t("admin.overview.thisMonth"),
                  values: table.sources.map((source) => source.thisMonth),
                  tone: "primary",
                },
                {
                  name: t("admin.overview.lastMonthSeries"),
                  values: table.sources.map((source) => source.lastMonth),
                  tone: "muted",
                },
              ]}
              format={(cents) => format.money(cents, table.currency)}
              floor={400}
            />
          </div>
        ))}
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="overview-supporters" title={t("admin.overview.supportersTitle")}>
          <dl className="grid grid-cols-3 gap-4" data-testid="overview-supporters">
            {(["observer", "analyst", "first_human"] as const).map((tier) => (
              <Figure
                key={tier}
                label={t(`tiers.${tier}`)}
                value={format.number(supporters.find((row) => row.tier === tier)?.count ?? 0)}
                to={`/admin/subscriptions?tier=${tier}&current=1`}
              />
            ))}
          </dl>
        </Panel>
        <Panel id="overview-shop" title={t("admin.overview.shopTitle")}>
          <dl className="grid grid-cols-2 gap-4">
            <Figure
              label={t("admin.overview.toShip")}
              value={format.number(ordersToShip)}
              to="/admin/orders?status=paid"
            />
            <Figure
              label={t("admin.overview.accounts")}
              value={format.number(accounts)}
              to="/admin/readers"
            />
          </dl>
        </Panel>
      </div>
      <Panel id="overview-goals" title={t("admin.overview.goalsTitle")}>
        {goals.length ? (
          <ul className="flex flex-col gap-4">
            {goals.map((goal) => (
              <li key={goal.id}>
                <Link to={`/admin/goals/${goal.id}`} className="underline">
                  {goal.title}
                </Link>
                <GoalProgress goal={goal} label={goal.title} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted">{t("admin.overview.noGoals")}</p>
        )}
      </Panel>
      <Panel id="overview-chapters" title={t("admin.overview.chaptersTitle")}>
        <dl className="grid grid-cols-3 gap-4" data-testid="admin-counts">
          {(["published", "scheduled", "draft"] as const).map((key) => (
            <Figure
              key={key}
              label={t(`admin.overview.${key}`)}
              value={format.number(chapters[key])}
              to={`/admin/chapters?status=${key}`}
            />
          ))}
        </dl>
        <h3 className="mt-6 font-display">{t("admin.overview.upcoming")}</h3>
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
