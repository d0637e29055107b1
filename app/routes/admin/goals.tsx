import "~/i18n/full-catalogue";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listGoals } from "~/features/fundraiser/fundraiser-editing.server";
import { useTranslation } from "~/i18n/react";
import { localDateTime } from "~/lib/local-time";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/goals";

export async function loader({ request }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  const deleted = new URL(request.url).searchParams.get("deleted")?.slice(0, 120);
  const goals = await listGoals();
  // Times as the author's form shows them: their wall clock, in their zone.
  const when = (instant: Date) => localDateTime(instant, author.timeZone).slice(0, 16);
  return {
    deleted,
    timeZone: author.timeZone,
    goals: goals.map((goal) => ({
      id: goal.id,
      title: goal.title,
      period: goal.period,
      targetCents: goal.targetCents,
      currency: goal.currency,
      startsAt: when(goal.startsAt),
      endsAt: goal.endsAt && when(goal.endsAt),
    })),
  };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The fundraiser's goals, the latest start first: the fundraiser shows the latest started of each period. */
export default function AdminGoals({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <DocumentTitle name={t("admin.goals.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.goals.title")}</h1>
        <Link to="/admin/goals/new" className={buttonClass("primary")}>
          {t("admin.goals.new")}
        </Link>
      </div>
      <p className="text-muted">{t("admin.goals.intro", { zone: loaderData.timeZone })}</p>
      {loaderData.deleted ? (
        <FormNotice>{t("admin.goals.deleted", { title: loaderData.deleted })}</FormNotice>
      ) : null}
      <ul
        className="flex flex-col divide-y divide-line rounded-xl border border-line bg-[color:var(--surface)] px-4 sm:px-6"
        data-testid="goals"
      >
        {loaderData.goals.map((goal) => (
          <li key={goal.id} className="flex flex-wrap items-baseline justify-between gap-x-4 py-3">
            <Link to={`/admin/goals/${goal.id}`} className="underline">
              {goal.title}
            </Link>
            <span className="text-sm text-muted">
              {t(`admin.goals.periods.${goal.period}`)} · {format.money(goal.targetCents, goal.currency)} ·{" "}
              {goal.endsAt
                ? t("admin.goals.runs", { start: goal.startsAt, end: goal.endsAt })
                : t("admin.goals.from", { start: goal.startsAt })}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
