import { Form, useNavigation } from "react-router";
import { UploadedImage } from "~/features/uploads/uploaded-image";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { PollOptionView, PollView } from "./queries.server";
import type { VoteRefusal } from "./rules";

/** An option's image: a column of the grid at most (two across on a phone, four on a desktop). */
const SIZES = "(min-width: 64rem) 14rem, 50vw";

function OptionImage({ option }: { option: PollOptionView }) {
  return (
    <UploadedImage
      src={option.picture?.src ?? ""}
      picture={option.picture}
      alt={option.label}
      sizes={SIZES}
      width={600}
      height={600}
      loading="lazy"
      className="aspect-square w-full rounded-md object-cover"
    />
  );
}

/** The results: each option's bar, votes and share, the reader's own choice marked. */
function Results({ poll }: { poll: PollView }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col gap-3" aria-label={t("polls.results")}>
        {poll.options.map((option) => {
          const mine = poll.myOption === option.id;
          return (
            <li key={option.id} className="grid grid-cols-[4rem_1fr] items-center gap-3">
              <OptionImage option={option} />
              <div className="flex min-w-0 flex-col gap-1">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className={mine ? "font-semibold text-primary" : ""}>
                    {option.label}
                    {mine ? <span className="ml-2 text-sm text-accent">{t("polls.yourVote")}</span> : null}
                  </span>
                  <span className="text-sm text-muted tabular-nums">
                    {t("polls.share", { percent: option.percent ?? 0, count: option.votes ?? 0 })}
                  </span>
                </div>
                <div className="h-2 overflow-hidden rounded-full bg-[color:var(--line)]" aria-hidden="true">
                  <div
                    className={mine ? "h-full bg-primary" : "h-full bg-accent"}
                    style={{ width: `${option.percent ?? 0}%` }}
                  />
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <p className="text-sm text-muted">
        {t("polls.total", { count: poll.total ?? 0, formatted: format.number(poll.total ?? 0) })}
      </p>
    </div>
  );
}

/** What stands in for the vote button when this reader may not vote: sign in, or join a tier that votes. */
function Refusal({ refusal }: { refusal: VoteRefusal }) {
  const { t } = useTranslation();
  if (refusal === "signIn")
    return (
      <p className="text-muted">
        <Link to="/login?redirectTo=%2Fpolls" className="text-primary underline underline-offset-2">
          {t("polls.signIn")}
        </Link>{" "}
        {t("polls.signInWhy")}
      </p>
    );
  if (refusal !== "tier") return null;
  return (
    <p className="text-muted" data-testid="poll-tier-refusal">
      {t("polls.errors.tier")}{" "}
      <Link to="/fundraiser" className="text-primary underline underline-offset-2">
        {t("polls.join")}
      </Link>
    </p>
  );
}

/** The options as a choice (a radio each, its image its label), and the vote button. */
function Ballot({ poll, error }: { poll: PollView; error?: string }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("poll") === String(poll.id);
  return (
    <Form method="post" className="flex flex-col gap-4" preventScrollReset>
      <input type="hidden" name="poll" value={poll.id} />
      <fieldset className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <legend className="sr-only">{poll.question}</legend>
        {poll.options.map((option) => (
          <label
            key={option.id}
            className="flex cursor-pointer flex-col gap-2 rounded-lg border border-line p-2 has-[:checked]:border-primary has-[:checked]:ring-2 has-[:checked]:ring-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent"
          >
            <OptionImage option={option} />
            <span className="flex min-h-8 items-center gap-2">
              <input
                type="radio"
                name="option"
                value={option.id}
                required
                defaultChecked={poll.myOption === option.id}
                className="h-5 w-5 shrink-0 accent-[color:var(--primary)]"
              />
              <span className="min-w-0 break-words">{option.label}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      <button type="submit" className={buttonClass("primary", "self-start")} disabled={busy}>
        {poll.myOption === null ? t("polls.vote") : t("polls.changeVote")}
      </button>
    </Form>
  );
}

/** The options' pictures and labels for a reader who may not vote and sees no results yet. */
function Gallery({ poll }: { poll: PollView }) {
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {poll.options.map((option) => (
        <li key={option.id} className="flex flex-col gap-2 rounded-lg border border-line p-2">
          <OptionImage option={option} />
          <span className="break-words">{option.label}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One poll (docs/product-rules.md "Votes on art"): open, a ballot for a reader who may vote (their vote
 * checked, to change), with the results below once they voted; else its options and why they may not vote.
 * Closed, its results for everyone.
 */
export function PollCard({
  poll,
  refusal,
  error,
}: {
  poll: PollView;
  /** Why this reader may not vote on it now, if so. */
  refusal: VoteRefusal | undefined;
  /** A refused vote's message key, for this poll. */
  error?: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const headingId = `poll-${poll.id}`;
  const when =
    poll.phase === "open"
      ? t("polls.closes", { date: format.date(poll.closesAt, { dateStyle: "long", timeStyle: "short" }) })
      : t("polls.closed", { date: format.date(poll.closesAt, { dateStyle: "long" }) });
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-line bg-[color:var(--surface)] p-4 sm:p-6"
      data-testid="poll"
    >
      <div className="flex flex-col gap-1">
        <p className="font-display text-sm tracking-widest text-accent uppercase">
          {poll.phase === "open" ? t("polls.open") : t("polls.past")}
        </p>
        <h2 id={headingId} className="font-display text-2xl text-primary">
          {poll.question}
        </h2>
        <p className="text-sm text-muted">{when}</p>
      </div>
      {refusal === undefined ? (
        <Ballot poll={poll} error={error} />
      ) : poll.total === undefined ? (
        <Gallery poll={poll} />
      ) : null}
      {poll.total !== undefined ? <Results poll={poll} /> : null}
      {refusal ? <Refusal refusal={refusal} /> : null}
      {refusal && error ? <FormAlert>{t(error)}</FormAlert> : null}
    </section>
  );
}
