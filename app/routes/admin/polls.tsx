import "~/i18n/full-catalogue";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listPollsForAdmin } from "~/features/polls/editing.server";
import { useTranslation } from "~/i18n/react";
import { localMinute } from "~/lib/local-time";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/polls";

export async function loader({ request }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  const deleted = new URL(request.url).searchParams.get("deleted")?.slice(0, 200);
  const polls = await listPollsForAdmin();
  // Times as the author's form shows them: their wall clock, in their zone.
  const when = (instant: Date) => localMinute(instant, author.timeZone).replace("T", " ");
  return {
    deleted,
    timeZone: author.timeZone,
    polls: polls.map((poll) => ({
      id: poll.id,
      question: poll.question,
      opensAt: when(poll.opensAt),
      closesAt: when(poll.closesAt),
      votes: poll.votes,
    })),
  };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The polls on art, the latest opening first, each with its times and votes. */
export default function AdminPolls({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <DocumentTitle name={t("admin.polls.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.polls.title")}</h1>
        <Link to="/admin/polls/new" className={buttonClass("primary")}>
          {t("admin.polls.new")}
        </Link>
      </div>
      <p className="text-muted">{t("admin.polls.intro", { zone: loaderData.timeZone })}</p>
      {loaderData.deleted ? (
        <FormNotice>{t("admin.polls.deleted", { title: loaderData.deleted })}</FormNotice>
      ) : null}
      {loaderData.polls.length === 0 ? (
        <p className="italic">{t("admin.polls.empty")}</p>
      ) : (
        <ul
          className="flex flex-col divide-y divide-line rounded-xl border border-line bg-[color:var(--surface)] px-4 sm:px-6"
          data-testid="admin-polls"
        >
          {loaderData.polls.map((poll) => (
            <li key={poll.id} className="flex flex-wrap items-baseline justify-between gap-x-4 py-3">
              <Link to={`/admin/polls/${poll.id}`} className="underline">
                {poll.question}
              </Link>
              <span className="text-sm text-muted">
                {t("admin.polls.runs", { start: poll.opensAt, end: poll.closesAt })} ·{" "}
                {t("admin.polls.votes", { count: poll.votes })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
