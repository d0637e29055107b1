import "~/i18n/full-catalogue";
import { data } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { answerComments } from "~/features/comments/action.server";
import type { CommentActionData } from "~/features/comments/comment-form";
import { CommentsThread } from "~/features/comments/comments-thread";
import { listQuerySchema } from "~/features/comments/limits";
import { commentAccess, listComments } from "~/features/comments/queries.server";
import { useTranslation } from "~/i18n/react";
import { parseId } from "~/lib/parse";
import { shareableIf, shareableIfLoaderSays } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import type { Route } from "./+types/chapter-comments";

/**
 * A chapter's comments (ADR 47): their own request, loaded under the chapter once it is read, and a page
 * of their own for readers without scripts. A locked chapter's comments are as locked as its text (403).
 * A visitor's page is the same for every visitor, kept by the comments revision (ADR 47).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const number = parseId(params.id);
  const user = await getSessionUser(request);
  const access = number === undefined ? undefined : await commentAccess(number, user);
  if (!access || (!access.ok && access.reason === "notFound"))
    throw data({ notFound: true }, { status: 404 });
  if (!access.ok) throw data({ locked: true, number }, { status: 403 });
  const query = listQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const page = await listComments(
    { id: access.chapterId, number: number ?? 0, title: access.title },
    query,
    user,
  );
  return data(page, { headers: shareableIf(!user) });
}

export const headers = shareableIfLoaderSays;

export async function action({ request, params, context }: Route.ActionArgs) {
  const number = parseId(params.id);
  if (number === undefined) throw data({ notFound: true }, { status: 404 });
  return answerComments(request, number, await getSessionUser(request), context);
}

const hrefFor = (chapter: number) => (order: string, page: number) =>
  `/chapter/${chapter}/comments?order=${order}${page > 1 ? `&page=${page}` : ""}`;

export default function ChapterComments({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { chapter } = loaderData;
  const here = hrefFor(chapter.number)(loaderData.order, loaderData.page);
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-8">
      <DocumentTitle name={t("comments.pageTitle", { number: chapter.number, title: chapter.title })} />
      <p>
        <Link to={`/chapter/${chapter.number}`} className="underline">
          {t("comments.backToChapter", { number: chapter.number })}
        </Link>
      </p>
      <h1 className="font-display text-3xl text-primary">
        {t("comments.pageTitle", { number: chapter.number, title: chapter.title })}
      </h1>
      <CommentsThread
        page={loaderData}
        navigation={{ href: hrefFor(chapter.number) }}
        actionData={actionData as CommentActionData | undefined}
        signInHref={`/login?redirectTo=${encodeURIComponent(here)}`}
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const status = (error as { status?: number })?.status;
  const locked = status === 403 ? (error as { data?: { number?: number } }).data?.number : undefined;
  if (status !== 404 && status !== 403) throw error;
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-6 px-6 text-center">
      <DocumentTitle name={locked ? t("comments.locked") : t("reader.notFound")} />
      <h1 className="font-display text-3xl text-primary">
        {locked ? t("comments.locked") : t("reader.notFound")}
      </h1>
      <Link to={locked ? `/chapter/${locked}` : "/toc"} className={buttonClass("primary")}>
        {locked ? t("comments.openChapter", { number: locked }) : t("notFound.toc")}
      </Link>
    </div>
  );
}
