import "~/i18n/full-catalogue";
import { data } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { getMembership } from "~/features/membership/queries.server";
import { AnsweredList, JoinLink, useMonthName } from "~/features/qa/qa-views";
import { publishedMonth } from "~/features/qa/queries.server";
import { isMonthKey } from "~/features/qa/rules";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/month";

/** A published month (e.g. /qa/2026-11); anything else, a month not published included, is the 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!isMonthKey(params.month)) throw data(null, { status: 404 });
  const user = await getSessionUser(request);
  const tier = user ? (await getMembership(user.id)).tier : "free";
  const page = await publishedMonth(params.month, tier);
  if (!page) throw data(null, { status: 404 });
  return page;
}

export default function QaMonth({ loaderData: page }: Route.ComponentProps) {
  const { t } = useTranslation();
  const monthName = useMonthName();
  return (
    <Page
      title={page.title}
      eyebrow={t("qa.monthEyebrow", { month: monthName(page.month) })}
      intro={page.intro ? <p className="whitespace-pre-wrap">{page.intro}</p> : undefined}
      width="max-w-3xl"
    >
      <p className="mb-6">
        <Link to="/qa" className="text-primary underline underline-offset-2">
          {t("qa.back")}
        </Link>
      </p>
      {page.open ? null : (
        <div
          className="mb-8 flex flex-col gap-3 rounded-lg border border-line bg-surface p-4"
          data-testid="qa-members-only"
        >
          <p>{t("qa.membersOnly")}</p>
          <JoinLink />
        </div>
      )}
      <AnsweredList questions={page.questions} />
    </Page>
  );
}
