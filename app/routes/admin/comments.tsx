import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { z } from "zod";
import { nextPagePath } from "~/features/admin/filters";
import { requireAuthor } from "~/features/auth/guards.server";
import { moderationActions, moderationViews } from "~/features/comments/moderation";
import { listForModeration, moderateComment, setCommentBan } from "~/features/comments/moderation.server";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm, wholeNumber } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/comments";

const filterSchema = z.object({
  view: z.enum(moderationViews).catch("reported"),
  before: wholeNumber(1, 2_147_483_647).optional().catch(undefined),
});

const id = wholeNumber(1, 2_147_483_647);
const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(moderationActions), comment: id }),
  z.object({ intent: z.enum(["ban", "unban"]), reader: id }),
]);

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const url = new URL(request.url);
  const filter = filterSchema.parse(Object.fromEntries(url.searchParams));
  const done = moderationActions.concat().find((action) => action === url.searchParams.get("done"));
  const banned = url.searchParams.get("done") === "ban" || url.searchParams.get("done") === "unban";
  return {
    ...(await listForModeration(filter)),
    filter,
    done: done ?? (banned ? (url.searchParams.get("done") as "ban" | "unban") : undefined),
  };
}

/** Hides, restores, deletes a comment or dismisses its reports; bars a reader from commenting or lifts it. */
export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const parsed = parseForm(actionSchema, await readForm(request));
  if (!parsed.ok) return data({ error: "admin.comments.errors.invalid" }, 400);
  const actor = { via: "admin" as const, userId: author.id };
  const input = parsed.data;
  const outcome =
    "comment" in input
      ? await moderateComment(input.comment, input.intent, actor)
      : await setCommentBan(input.reader, input.intent === "ban", actor);
  if (!outcome.ok)
    return data(
      {
        error:
          outcome.reason === "author" ? "admin.comments.errors.author" : "admin.comments.errors.notFound",
      },
      outcome.reason === "author" ? 409 : 404,
    );
  const back = new URL(request.url);
  back.searchParams.set("done", input.intent);
  return redirect(`/admin/comments?${back.searchParams}`);
}

/** Comment moderation (ADR 47): reported first; each comment hidden, restored, deleted; readers barred. */
export default function AdminComments({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { comments, next, filter, done } = loaderData;
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  return (
    <>
      <DocumentTitle name={t("admin.comments.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.comments.title")}</h1>
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      {done && !error ? <FormNotice>{t(`admin.comments.done.${done}`)}</FormNotice> : null}
      <nav aria-label={t("admin.comments.views")} className="flex flex-wrap gap-2">
        {moderationViews.map((view) => (
          <Link
            key={view}
            to={`/admin/comments?view=${view}`}
            aria-current={view === filter.view ? "page" : undefined}
            className={buttonClass(view === filter.view ? "primary" : "outline")}
          >
            {t(`admin.comments.view.${view}`)}
          </Link>
        ))}
      </nav>
      {comments.length ? (
        <ul className="flex flex-col divide-y divide-line" data-testid="admin-comments">
          {comments.map((comment) => (
            <li key={comment.id} className="flex flex-col gap-2 py-4">
              <p className="flex flex-wrap items-baseline gap-x-3 text-sm">
                <Link to={`/admin/readers/${comment.writerId}`} className="font-semibold underline">
                  {comment.writer}
                </Link>
                <Link to={`/chapter/${comment.chapter}/comments#comment-${comment.id}`} className="underline">
                  {t("admin.comments.onChapter", { number: comment.chapter })}
                </Link>
                <span className="text-muted">
                  {format.date(comment.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                </span>
                <span className="text-muted">{t(`admin.comments.status.${comment.status}`)}</span>
                {comment.banned ? <span className="text-muted">{t("admin.comments.barred")}</span> : null}
              </p>
              <div className="comment-body" dangerouslySetInnerHTML={{ __html: comment.html }} />
              {comment.reports.length ? (
                <div className="text-sm">
                  <p>{t("admin.comments.reports", { count: comment.reports.length })}</p>
                  <ul className="list-disc pl-6">
                    {comment.reports.map((reason, index) => (
                      <li key={index}>{reason || t("admin.comments.noReason")}</li>
                    ))}
                  </ul>
                </div>
              ) : null}
              <div className="flex flex-wrap gap-2">
                {[
                  comment.status === "visible" ? ("hide" as const) : ("restore" as const),
                  "delete" as const,
                  ...(comment.reports.length ? ["dismiss" as const] : []),
                ].map((intent) => (
                  <form key={intent} method="post">
                    <input type="hidden" name="intent" value={intent} />
                    <input type="hidden" name="comment" value={comment.id} />
                    <button type="submit" className={buttonClass("outline")}>
                      {t(`admin.comments.action.${intent}`)}
                    </button>
                  </form>
                ))}
                <form method="post">
                  <input type="hidden" name="intent" value={comment.banned ? "unban" : "ban"} />
                  <input type="hidden" name="reader" value={comment.writerId} />
                  <button type="submit" className={buttonClass("outline")}>
                    {t(comment.banned ? "admin.comments.action.unban" : "admin.comments.action.ban", {
                      name: comment.writer,
                    })}
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted">{t("admin.comments.none")}</p>
      )}
      {next ? (
        <Link to={nextPagePath("/admin/comments", { view: filter.view }, next)} className="underline">
          {t("admin.comments.more")}
        </Link>
      ) : null}
    </>
  );
}
