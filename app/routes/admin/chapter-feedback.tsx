import "~/i18n/full-catalogue";
import { data } from "react-router";
import { rowIdParam } from "~/features/admin/route-params";
import { requireAuthor } from "~/features/auth/guards.server";
import { setBetaReaders } from "~/features/beta/commands.server";
import { FeedbackList } from "~/features/beta/feedback-list";
import { betaMarkSchema } from "~/features/beta/limits";
import { BetaMarkForm } from "~/features/beta/mark-form";
import { betaState, feedbackFor } from "~/features/beta/queries.server";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import type { Route } from "./+types/chapter-feedback";

/** What beta readers wrote about a chapter (ADR 83), for the author alone, with its "for beta readers" mark. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const id = rowIdParam(params.id) ?? 0;
  const state = await betaState(id);
  if (!state) throw data(null, { status: 404 });
  return { id, state, feedback: await feedbackFor(id) };
}

/** Marks the chapter for beta readers or unmarks it (audit-logged): from here or from the chapter editor. */
export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const id = rowIdParam(params.id) ?? 0;
  const form = await readForm(request);
  const parsed = parseForm(betaMarkSchema, form);
  if (form.get("intent") !== "mark" || !parsed.ok) return data({ error: "beta.errors.mark" }, 400);
  const marked = await setBetaReaders(id, parsed.data.betaReaders, { via: "admin", userId: author.id });
  if (!marked.ok && marked.reason === "notFound") throw data(null, { status: 404 });
  if (!marked.ok) return data({ error: "beta.admin.draftsOnly" }, 409);
  return { betaReaders: marked.betaReaders };
}

export default function ChapterFeedback({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { id, state, feedback } = loaderData;
  const title = t("beta.admin.pageTitle", { number: state.number });
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        <Link to={`/admin/chapters/${id}`} className="underline">
          {t("beta.admin.backToEditor")}
        </Link>
      </div>
      <BetaMarkForm id={id} state={state} onNotesPage />
      <h2 className="font-display text-2xl">{t("beta.admin.feedbackTitle", { count: feedback.length })}</h2>
      <FeedbackList items={feedback} />
    </>
  );
}
