import "~/i18n/full-catalogue";
import { Form, useLocation } from "react-router";
import { requireAuthor } from "~/features/auth/guards.server";
import { answerAdminQa } from "~/features/qa/admin-action.server";
import { useMonthName } from "~/features/qa/qa-views";
import { adminMonth, adminMonths } from "~/features/qa/queries.server";
import { isMonthKey, QA_LIMITS, qaVisibilityOptions } from "~/features/qa/rules";
import { useTranslation } from "~/i18n/react";
import { getEnv } from "~/lib/env.server";
import { readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice, SelectField, TextAreaField } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/qa";

const dones = ["answer", "saved", "published", "already"] as const;

/** One month's questions (this month unless `?month=` names another) and the months to choose from. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const url = new URL(request.url);
  const { current, months } = await adminMonths();
  const asked = url.searchParams.get("month") ?? "";
  const month = isMonthKey(asked) && asked <= current ? asked : current;
  const done = dones.find((value) => value === url.searchParams.get("done"));
  return { month, current, months, done, zone: getEnv().SITE_TIME_ZONE, ...(await adminMonth(month)) };
}

export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const { current } = await adminMonths();
  return answerAdminQa(author, await readForm(request), current);
}

type Result = { intent?: string; errors?: Record<string, string> } | undefined;

/** Monthly Q&A for the author: answer some of the month's questions, then publish the month once. */
export default function AdminQa({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const monthName = useMonthName();
  const { month, months, page, questions, done } = loaderData;
  const result = actionData as Result;
  const { key } = useLocation();
  return (
    <>
      <DocumentTitle name={t("admin.qa.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.qa.title")}</h1>
      <p className="text-muted">{t("admin.qa.intro", { zone: loaderData.zone })}</p>
      {done && !result ? <FormNotice>{t(`admin.qa.done.${done}`)}</FormNotice> : null}
      {result?.errors?.form ? <FormAlert>{t(result.errors.form)}</FormAlert> : null}
      <nav aria-label={t("admin.qa.monthsNav")} className="flex flex-wrap gap-2">
        {months.map((row) => (
          <Link
            key={row.month}
            to={`/admin/qa?month=${row.month}`}
            aria-current={row.month === month ? "page" : undefined}
            className={buttonClass(row.month === month ? "primary" : "outline")}
          >
            {t(row.published ? "admin.qa.monthPublished" : "admin.qa.monthOpen", {
              month: monthName(row.month),
              answered: row.answered,
              questions: row.questions,
            })}
          </Link>
        ))}
      </nav>

      <section
        aria-labelledby="qa-month-page"
        className="flex flex-col gap-3 rounded-lg border border-line p-4"
      >
        <h2 id="qa-month-page" className="font-display text-xl">
          {t("admin.qa.pageTitle", { month: monthName(month) })}
        </h2>
        <p className="text-sm text-muted" data-testid="qa-admin-status">
          {page?.publishedAt
            ? t("admin.qa.publishedOn", {
                date: format.date(page.publishedAt, { dateStyle: "medium", timeStyle: "short" }),
              })
            : t("admin.qa.notPublished")}
        </p>
        <Form key={`page-${key}`} method="post" className="flex flex-col gap-3">
          <input type="hidden" name="month" value={month} />
          <Field
            name="title"
            label={t("admin.qa.fields.title")}
            required
            maxLength={QA_LIMITS.title}
            defaultValue={page?.title ?? t("admin.qa.defaultTitle", { month: monthName(month) })}
            error={result?.intent === "month" ? result.errors?.title : undefined}
          />
          <TextAreaField
            name="intro"
            label={t("admin.qa.fields.intro")}
            rows={4}
            maxLength={QA_LIMITS.intro}
            defaultValue={page?.intro ?? ""}
            error={result?.intent === "month" ? result.errors?.intro : undefined}
          />
          <SelectField
            name="visibility"
            label={t("admin.qa.fields.visibility")}
            defaultValue={page?.visibility ?? "members"}
            error={result?.intent === "month" ? result.errors?.visibility : undefined}
          >
            {qaVisibilityOptions.map((option) => (
              <option key={option} value={option}>
                {t(`admin.qa.visibility.${option}`)}
              </option>
            ))}
          </SelectField>
          <div className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value="save" className={buttonClass("outline")}>
              {t("admin.qa.save")}
            </button>
            {page?.publishedAt ? null : (
              <button type="submit" name="intent" value="publish" className={buttonClass("primary")}>
                {t("admin.qa.publish")}
              </button>
            )}
            {page?.publishedAt ? (
              <Link to={`/qa/${month}`} className={buttonClass("outline")}>
                {t("admin.qa.view")}
              </Link>
            ) : null}
          </div>
        </Form>
      </section>

      <section aria-labelledby="qa-questions" className="flex flex-col gap-3">
        <h2 id="qa-questions" className="font-display text-xl">
          {t("admin.qa.questions", { count: questions.length })}
        </h2>
        {questions.length ? (
          <ol className="flex flex-col divide-y divide-line" data-testid="qa-admin-questions">
            {questions.map((question) => (
              <li key={question.id} id={`question-${question.id}`} className="flex flex-col gap-2 py-4">
                <p className="whitespace-pre-wrap break-words rounded-md border border-line p-3">
                  {question.body}
                </p>
                <p className="text-sm text-muted">
                  {t(question.anonymous ? "admin.qa.askerAnonymous" : "admin.qa.asker", {
                    name: question.asker,
                  })}{" "}
                  ·{" "}
                  <time dateTime={question.createdAt}>
                    {format.date(question.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                  </time>
                  {" · "}
                  {t(question.answer ? "admin.qa.answered" : "admin.qa.unanswered")}
                </p>
                <Form key={`answer-${question.id}-${key}`} method="post" className="flex flex-col gap-2">
                  <input type="hidden" name="intent" value="answer" />
                  <input type="hidden" name="question" value={question.id} />
                  <TextAreaField
                    name="answer"
                    id={`answer-${question.id}`}
                    label={t("admin.qa.fields.answer")}
                    hint={t("admin.qa.fields.answerHint")}
                    rows={4}
                    maxLength={QA_LIMITS.answer}
                    defaultValue={question.answer ?? ""}
                  />
                  <button type="submit" className={buttonClass("primary", "self-start")}>
                    {t("admin.qa.saveAnswer")}
                  </button>
                </Form>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-muted">{t("admin.qa.none")}</p>
        )}
      </section>
    </>
  );
}
