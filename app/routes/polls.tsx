import "~/i18n/full-catalogue";
import { data } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { getMembership } from "~/features/membership/queries.server";
import { PollCard } from "~/features/polls/poll-card";
import { listPolls } from "~/features/polls/queries.server";
import { voteRefusal } from "~/features/polls/rules";
import { voteSchema } from "~/features/polls/vote-form";
import { castVote, VoteRefused } from "~/features/polls/voting.server";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { Page } from "~/ui/page";
import type { Route } from "./+types/polls";

/**
 * Votes on art (docs/product-rules.md "Votes on art"). The page differs per reader (their vote, their tier,
 * the results once they voted) and with the clock (a poll opens and closes on its own time), so it is never
 * kept (app/routes.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const now = new Date();
  const [polls, membership] = await Promise.all([
    listPolls(user?.id, now),
    user ? getMembership(user.id, now) : undefined,
  ]);
  return {
    polls: polls.map((poll) => ({ poll, refusal: voteRefusal(membership?.tier, poll.phase) })),
  };
}

type ActionResult = { poll?: number; error: string };

/** A vote: a visitor is asked to sign in (the page links there); a refusal is answered beside its poll. */
export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  const parsed = parseForm(voteSchema, await readForm(request));
  if (!parsed.ok) return data<ActionResult>({ error: "polls.errors.choice" }, { status: 400 });
  const { poll, option } = parsed.data;
  if (!user) return data<ActionResult>({ poll, error: "polls.errors.signIn" }, { status: 401 });
  try {
    const { tier } = await getMembership(user.id);
    await castVote({ userId: user.id, tier }, { poll, option });
    return { poll };
  } catch (error) {
    if (error instanceof VoteRefused)
      return data<ActionResult>({ poll, error: error.messageKey }, { status: error.status });
    throw error;
  }
}

export default function Polls({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  return (
    <Page title={t("polls.heading")} intro={t("polls.intro")} width="max-w-4xl">
      {result?.error && result.poll === undefined ? <p role="alert">{t(result.error)}</p> : null}
      {loaderData.polls.length === 0 ? (
        <p className="text-center italic">{t("polls.empty")}</p>
      ) : (
        <div className="flex flex-col gap-8">
          {loaderData.polls.map(({ poll, refusal }) => (
            <PollCard
              key={poll.id}
              poll={poll}
              refusal={refusal}
              error={result?.poll === poll.id ? result.error : undefined}
            />
          ))}
        </div>
      )}
    </Page>
  );
}
