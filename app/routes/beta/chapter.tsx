import "~/i18n/full-catalogue";
import { data } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { BetaReader, type FeedbackResult } from "~/features/beta/beta-reader";
import { postFeedback } from "~/features/beta/commands.server";
import { feedbackSchema } from "~/features/beta/limits";
import { loadBetaChapter, mayReadBeta } from "~/features/beta/queries.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { parseId } from "~/lib/parse";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/chapter";

/** Never stored anywhere, by the page cache or the browser's: an unreleased draft (ADR 83). */
export const headers = () => ({ "Cache-Control": "private, no-store" });

/**
 * The beta chapter `:id` (its number) for a reader who holds the perk. For anyone else, or a number that is
 * not a beta chapter, the 404 of any missing page: whether a draft exists does not leak.
 */
async function betaChapterFor(request: Request, param: string | undefined) {
  const number = parseId(param);
  const user = await getSessionUser(request);
  if (number === undefined || !user || !(await mayReadBeta(user))) throw data(null, { status: 404 });
  const chapter = await loadBetaChapter(number);
  if (!chapter) throw data(null, { status: 404 });
  return { user, chapter };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { chapter } = await betaChapterFor(request, params.id);
  return { number: chapter.number, title: chapter.title, minutes: chapter.minutes, html: chapter.html };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, chapter } = await betaChapterFor(request, params.id);
  const form = await readForm(request);
  const values = { body: echoedValue(form, "body", 2100), paragraph: echoedValue(form, "paragraph", 12) };
  const parsed = parseForm(feedbackSchema, form);
  if (!parsed.ok) return data<FeedbackResult>({ errors: parsed.errors, values }, 400);
  const posted = await postFeedback(user.id, chapter, parsed.data);
  if (posted.ok) return { sent: { id: posted.id, left: posted.left } } satisfies FeedbackResult;
  if (posted.reason === "gone") throw data(null, { status: 404 });
  if (posted.reason === "paragraph")
    return data<FeedbackResult>({ errors: { paragraph: "beta.errors.paragraphMissing" }, values }, 400);
  return data<FeedbackResult>(
    { error: "beta.errors.rateLimited", minutes: Math.ceil(posted.retryAfterSeconds / 60), values },
    { status: 429, headers: { "Retry-After": String(posted.retryAfterSeconds) } },
  );
}

export default function BetaChapter({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <Page
      title={loaderData.title}
      name={t("beta.chapterTitle", { number: loaderData.number, title: loaderData.title })}
      eyebrow={t("beta.eyebrow", { number: loaderData.number })}
      intro={
        <p className="text-sm text-muted">
          {t("beta.draftNotice", { minutes: loaderData.minutes })}{" "}
          <Link to="/beta" className="underline">
            {t("beta.allChapters")}
          </Link>
        </p>
      }
      width="max-w-3xl"
    >
      <BetaReader html={loaderData.html} result={actionData as FeedbackResult | undefined} />
    </Page>
  );
}
