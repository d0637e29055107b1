import "~/i18n/full-catalogue";
import { getSessionUser } from "~/features/auth/session.server";
import { getMembership } from "~/features/membership/queries.server";
import { answerAsk } from "~/features/qa/action.server";
import { type AskerState, type AskFailure, AskPanel, MonthList } from "~/features/qa/qa-views";
import { askerView, publishedMonths } from "~/features/qa/queries.server";
import { useTranslation } from "~/i18n/react";
import { Page } from "~/ui/page";
import type { Route } from "./+types/index";

/** The reader's own state (may they ask, what is left) and the published months, for anyone. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const months = await publishedMonths();
  const asked = new URL(request.url).searchParams.get("asked") === "1";
  if (!user) return { months, asked, state: { kind: "visitor" } satisfies AskerState as AskerState };
  const view = await askerView(user.id, (await getMembership(user.id)).tier);
  const state: AskerState = view.mayAsk
    ? { kind: "member", closed: view.closed, left: view.left, asked: view.asked }
    : { kind: "refused" };
  return { months, asked, state };
}

export async function action({ request }: Route.ActionArgs) {
  return answerAsk(request);
}

/** Monthly Q&A (ADR 82): the ask form for Analyst members and above, then the published months. */
export default function Qa({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <Page title={t("qa.title")} intro={<p>{t("qa.intro")}</p>} width="max-w-3xl">
      <div className="flex flex-col gap-10">
        <AskPanel
          state={loaderData.state}
          failure={actionData as AskFailure | undefined}
          asked={loaderData.asked}
        />
        <section aria-labelledby="qa-months">
          <h2 id="qa-months" className="mb-2 font-display text-2xl text-primary">
            {t("qa.months")}
          </h2>
          <MonthList months={loaderData.months} />
        </section>
      </div>
    </Page>
  );
}
