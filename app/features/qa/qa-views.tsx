import { Form, useLocation, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/react";
import type { FieldErrors } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { Checkbox, FormAlert, FormNotice, TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import { QA_LIMITS, questionSchema } from "./rules";

/** What the ask panel knows of the reader: a visitor, a reader whose tier does not ask, or a member. */
export type AskerState =
  | { kind: "visitor" }
  | { kind: "refused" }
  | {
      kind: "member";
      closed: boolean;
      left: number;
      asked: { id: number; body: string; anonymous: boolean }[];
    };

export type AskFailure = { errors?: FieldErrors; error?: string; values?: { question: string } };

/** "2026-11" as the reader's language names it: "November 2026". */
export function useMonthName() {
  const { i18n } = useTranslation();
  return (month: string) =>
    new Intl.DateTimeFormat(i18n.language, { month: "long", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${month}-01T12:00:00Z`),
    );
}

/** Who asks is told what to do: sign in, join (with the way to), or the form with what is left this month. */
export function AskPanel({
  state,
  failure,
  asked,
}: {
  state: AskerState;
  failure?: AskFailure;
  asked: boolean;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="qa-ask"
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
      data-testid="qa-ask"
    >
      <h2 id="qa-ask" className="font-display text-xl text-primary sm:text-2xl">
        {t("qa.ask.title")}
      </h2>
      <p className="mt-2 text-muted">{t("qa.ask.rule", { count: QA_LIMITS.perMonth })}</p>
      <div className="mt-4">
        {state.kind === "visitor" ? (
          <p>
            <Link to="/login?redirectTo=%2Fqa" className={buttonClass("primary")}>
              {t("qa.ask.signIn")}
            </Link>
          </p>
        ) : state.kind === "refused" ? (
          <RefusedNote />
        ) : (
          <MemberForm state={state} failure={failure} asked={asked} />
        )}
      </div>
    </section>
  );
}

/** A free or Observer reader: why they cannot ask, and the way to a tier that can. */
function RefusedNote() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-3" data-testid="qa-refused">
      <FormAlert>{t("qa.errors.tier")}</FormAlert>
      <JoinLink />
    </div>
  );
}

/** The way to a tier that holds the monthly Q&A: the fundraiser's tier cards. */
export function JoinLink() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/fundraiser" className={buttonClass("primary")}>
        {t("qa.join")}
      </Link>
    </p>
  );
}

function MemberForm({
  state,
  failure,
  asked,
}: {
  state: Extract<AskerState, { kind: "member" }>;
  failure?: AskFailure;
  asked: boolean;
}) {
  const { t } = useTranslation();
  const submitting = useNavigation().state === "submitting";
  const { errors, onSubmit } = useFormValidation(questionSchema, failure?.errors);
  // A new page (the redirect after a question is kept) empties the form, so it is not sent twice.
  const { key } = useLocation();
  return (
    <div className="flex flex-col gap-4">
      {asked && !failure ? <FormNotice>{t("qa.ask.sent")}</FormNotice> : null}
      {failure?.error ? <FormAlert>{t(failure.error)}</FormAlert> : null}
      {state.asked.length ? (
        <div>
          <h3 className="font-display text-lg">{t("qa.ask.yours")}</h3>
          <ol className="mt-2 flex flex-col gap-2" data-testid="qa-my-questions">
            {state.asked.map((question) => (
              <li key={question.id} className="rounded-md border border-line p-3">
                <p className="whitespace-pre-wrap break-words">{question.body}</p>
                <p className="mt-1 text-sm text-muted">
                  {t(question.anonymous ? "qa.ask.askedAnonymously" : "qa.ask.askedByName")}
                </p>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {state.closed ? (
        <p className="text-muted">{t("qa.ask.closed")}</p>
      ) : state.left === 0 ? (
        <p className="text-muted" data-testid="qa-limit">
          {t("qa.errors.limit", { count: QA_LIMITS.perMonth })}
        </p>
      ) : (
        <Form key={key} method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <p className="text-sm text-muted" data-testid="qa-left">
            {t("qa.ask.left", { count: state.left })}
          </p>
          <TextAreaField
            name="question"
            label={t("qa.ask.question")}
            hint={t("qa.ask.hint", { min: QA_LIMITS.questionMin, max: QA_LIMITS.questionMax })}
            required
            rows={5}
            maxLength={QA_LIMITS.questionMax}
            defaultValue={failure?.values?.question}
            error={errors.question}
          />
          <Checkbox name="anonymous" label={t("qa.ask.anonymous")} />
          <button type="submit" className={buttonClass("primary", "self-start")} disabled={submitting}>
            {t("qa.ask.submit")}
          </button>
        </Form>
      )}
    </div>
  );
}

export type PublishedMonthSummary = { month: string; title: string; answered: number; publishedAt: string };

/** The published months, newest first, each a link to its page. */
export function MonthList({ months }: { months: PublishedMonthSummary[] }) {
  const { t } = useTranslation();
  const monthName = useMonthName();
  if (!months.length) return <p className="text-muted">{t("qa.noMonths")}</p>;
  return (
    <ol className="flex flex-col divide-y divide-line" data-testid="qa-months">
      {months.map((month) => (
        <li key={month.month} className="py-3">
          <Link to={`/qa/${month.month}`} className="font-display text-lg text-primary hover:underline">
            {month.title}
          </Link>
          <p className="text-sm text-muted">
            {monthName(month.month)} · {t("qa.answeredCount", { count: month.answered })}
          </p>
        </li>
      ))}
    </ol>
  );
}

export type AnsweredQuestion = { id: number; body: string; asker: string | null; answerHtml: string | null };

/**
 * A month's answered questions: the question as its asker wrote it (text), the answer as rendered Markdown
 * (none for a reader the month's answers are not open to).
 */
export function AnsweredList({ questions }: { questions: AnsweredQuestion[] }) {
  const { t } = useTranslation();
  if (!questions.length) return <p className="text-muted">{t("qa.noneAnswered")}</p>;
  return (
    <ol className="flex flex-col gap-6" data-testid="qa-answers">
      {questions.map((question) => (
        <li key={question.id}>
          <article aria-labelledby={`qa-question-${question.id}`} className="flex flex-col gap-3">
            <div className="rounded-md border-l-4 border-accent bg-surface p-3">
              <h2 id={`qa-question-${question.id}`} className="whitespace-pre-wrap break-words font-semibold">
                {question.body}
              </h2>
              <p className="mt-1 text-sm text-muted">
                {question.asker ? t("qa.askedBy", { name: question.asker }) : t("qa.askedAnonymously")}
              </p>
            </div>
            {question.answerHtml === null ? null : (
              <div className="comment-body" dangerouslySetInnerHTML={{ __html: question.answerHtml }} />
            )}
          </article>
        </li>
      ))}
    </ol>
  );
}
