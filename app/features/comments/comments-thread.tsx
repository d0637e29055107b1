import "~/i18n/full-catalogue";
import { useState } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import { type CommentActionData, CommentForm } from "./comment-form";
import type { CommentOrder } from "./limits";
import type { CommentsPage, CommentView, CommentViewer } from "./types";

/** Where the thread goes for another order or page: a link (its own page) or a new load (under a chapter). */
export type ThreadNavigation = {
  href: (order: CommentOrder, page: number) => string;
  go?: (order: CommentOrder, page: number) => void;
};

/**
 * A chapter's comments: the count, the order, a form to comment (or why not), 30 comments with their
 * replies, and the pager. The same on its own page (rendered by the server, every action a plain form) and
 * under the chapter (loaded once the chapter is read, actions by fetchers).
 */
export function CommentsThread({
  page,
  navigation,
  actionData,
  signInHref,
}: {
  page: CommentsPage;
  navigation: ThreadNavigation;
  /** The answer to a form posted without scripts, shown on the page it came back to. */
  actionData?: CommentActionData;
  signInHref: string;
}) {
  const { t } = useTranslation();
  const { chapter, viewer } = page;
  return (
    <div className="flex flex-col gap-6" data-testid="comments">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted" data-testid="comment-count">
          {t("comments.count", { count: page.total })}
        </p>
        <nav aria-label={t("comments.order.label")} className="flex gap-2">
          {(["newest", "oldest"] as const).map((order) => (
            <PagerLink
              key={order}
              navigation={navigation}
              order={order}
              page={1}
              current={order === page.order}
            >
              {t(`comments.order.${order}`)}
            </PagerLink>
          ))}
        </nav>
      </div>
      <Composer viewer={viewer} chapter={chapter.number} signInHref={signInHref} actionData={actionData} />
      {page.comments.length ? (
        <ol className="flex flex-col gap-6">
          {page.comments.map((comment) => (
            <li key={comment.id}>
              <Comment comment={comment} chapter={chapter.number} viewer={viewer} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-muted">{t("comments.none")}</p>
      )}
      {page.pages > 1 ? (
        <nav aria-label={t("comments.pages")} className="flex flex-wrap items-center justify-between gap-3">
          {page.page > 1 ? (
            <PagerLink navigation={navigation} order={page.order} page={page.page - 1}>
              {t("comments.previous")}
            </PagerLink>
          ) : (
            <span />
          )}
          <span className="text-sm text-muted">
            {t("comments.pageOf", { page: page.page, pages: page.pages })}
          </span>
          {page.page < page.pages ? (
            <PagerLink navigation={navigation} order={page.order} page={page.page + 1}>
              {t("comments.next")}
            </PagerLink>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}

function PagerLink({
  navigation,
  order,
  page,
  current,
  children,
}: {
  navigation: ThreadNavigation;
  order: CommentOrder;
  page: number;
  current?: boolean;
  children: string;
}) {
  const { go } = navigation;
  return (
    <Link
      to={navigation.href(order, page)}
      aria-current={current ? "true" : undefined}
      className={buttonClass(current ? "primary" : "outline")}
      preventScrollReset
      onClick={
        go
          ? (event) => {
              event.preventDefault();
              go(order, page);
            }
          : undefined
      }
    >
      {children}
    </Link>
  );
}

function Composer({
  viewer,
  chapter,
  signInHref,
  actionData,
}: {
  viewer: CommentViewer;
  chapter: number;
  signInHref: string;
  actionData?: CommentActionData;
}) {
  const { t } = useTranslation();
  if (!viewer.signedIn)
    return (
      <p>
        <Link to={signInHref} className="underline">
          {t("comments.signIn")}
        </Link>
      </p>
    );
  if (viewer.banned) return <p className="text-muted">{t("comments.banned")}</p>;
  return (
    <CommentForm
      chapter={chapter}
      intent="post"
      submitLabel={t("comments.form.post")}
      serverError={actionData?.intent === "post" ? actionData : undefined}
    />
  );
}

/** One comment: its writer (and the Author badge), when, its text (folded if a spoiler), what can be done. */
function Comment({
  comment,
  chapter,
  viewer,
}: {
  comment: CommentView;
  chapter: number;
  viewer: CommentViewer;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [editing, setEditing] = useState(false);
  const active = viewer.signedIn && !viewer.banned;
  const body = comment.deleted ? (
    <p className="text-muted italic">{t("comments.deleted")}</p>
  ) : comment.spoiler ? (
    <details className="comment-spoiler">
      <summary className="min-h-11 cursor-pointer py-2 underline">{t("comments.spoilerShow")}</summary>
      {/* Sanitised on the server when written (the chapters' sanitiser, the comment subset). */}
      <div className="comment-body" dangerouslySetInnerHTML={{ __html: comment.html }} />
    </details>
  ) : (
    <div className="comment-body" dangerouslySetInnerHTML={{ __html: comment.html }} />
  );
  return (
    <article
      id={`comment-${comment.id}`}
      className="comment flex flex-col gap-2"
      aria-labelledby={`comment-${comment.id}-by`}
    >
      <header className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <strong id={`comment-${comment.id}-by`} className="text-base text-ink">
          {comment.writer}
        </strong>
        {comment.byAuthor ? <span className="comment-badge">{t("comments.authorBadge")}</span> : null}
        <time dateTime={comment.createdAt} className="text-muted">
          {format.date(comment.createdAt, { dateStyle: "medium", timeStyle: "short" })}
        </time>
        {comment.editedAt ? <span className="text-muted">{t("comments.edited")}</span> : null}
      </header>
      {editing && comment.editableMd !== undefined ? (
        <CommentForm
          chapter={chapter}
          intent="edit"
          comment={comment.id}
          initial={comment.editableMd}
          initialSpoiler={comment.spoiler}
          submitLabel={t("comments.form.save")}
          onDone={() => setEditing(false)}
        />
      ) : (
        body
      )}
      {comment.deleted ? null : (
        <div className="flex flex-wrap items-center gap-2">
          <Heart comment={comment} chapter={chapter} enabled={active} />
          {comment.editableMd !== undefined && !editing ? (
            <button type="button" className={buttonClass("ghost")} onClick={() => setEditing(true)}>
              {t("comments.edit")}
            </button>
          ) : null}
          {comment.mine ? <DeleteButton comment={comment.id} chapter={chapter} /> : null}
          {active && !comment.mine ? <ReportForm comment={comment.id} chapter={chapter} /> : null}
        </div>
      )}
      {active && comment.parentId === null && !comment.deleted ? (
        <details className="comment-reply">
          <summary className="min-h-11 cursor-pointer py-2 underline">{t("comments.reply")}</summary>
          <CommentForm
            chapter={chapter}
            intent="post"
            parent={comment.id}
            submitLabel={t("comments.form.postReply")}
          />
        </details>
      ) : null}
      {comment.replies.length ? (
        <ol className="ml-4 flex flex-col gap-4 border-l-2 border-line pl-4">
          {comment.replies.map((reply) => (
            <li key={reply.id}>
              <Comment comment={reply} chapter={chapter} viewer={viewer} />
            </li>
          ))}
        </ol>
      ) : null}
    </article>
  );
}

/** The heart: a toggle for signed-in readers (its state sent, so a repeat changes nothing), a count for others. */
function Heart({ comment, chapter, enabled }: { comment: CommentView; chapter: number; enabled: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<CommentActionData>();
  // Shown at once as pressed (or not), before the server answers; the answer's reload confirms it.
  const pending = fetcher.formData?.get("on");
  const hearted = pending === undefined || pending === null ? comment.hearted : pending === "1";
  const hearts = comment.hearts + (hearted === comment.hearted ? 0 : hearted ? 1 : -1);
  if (!enabled)
    return (
      <span className="text-sm text-muted">
        <span aria-hidden="true">♥ {hearts}</span>
        <span className="sr-only">{t("comments.hearts", { count: hearts })}</span>
      </span>
    );
  return (
    <fetcher.Form method="post" action={`/chapter/${chapter}/comments`}>
      <input type="hidden" name="intent" value="heart" />
      <input type="hidden" name="comment" value={comment.id} />
      <input type="hidden" name="on" value={hearted ? "0" : "1"} />
      <button
        type="submit"
        className={buttonClass("ghost")}
        aria-pressed={hearted}
        aria-label={t("comments.heart", { count: hearts })}
      >
        <span aria-hidden="true" className={hearted ? "text-primary" : undefined}>
          {hearted ? "♥" : "♡"}
        </span>{" "}
        {hearts}
      </button>
    </fetcher.Form>
  );
}

/** Deleting one's own comment asks once more (an open <details>), with or without scripts. */
function DeleteButton({ comment, chapter }: { comment: number; chapter: number }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<CommentActionData>();
  return (
    <details className="comment-menu">
      <summary className={buttonClass("ghost")}>{t("comments.delete")}</summary>
      <fetcher.Form
        method="post"
        action={`/chapter/${chapter}/comments`}
        className="flex items-center gap-2 py-2"
      >
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="comment" value={comment} />
        <span className="text-sm">{t("comments.deleteConfirm")}</span>
        <button type="submit" className={buttonClass("outline")}>
          {t("comments.deleteYes")}
        </button>
      </fetcher.Form>
    </details>
  );
}

function ReportForm({ comment, chapter }: { comment: number; chapter: number }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<CommentActionData>();
  const reasonId = `report-${comment}`;
  if (fetcher.data?.ok)
    return (
      <p role="status" className="text-sm text-muted">
        {t("comments.reported")}
      </p>
    );
  return (
    <details className="comment-menu">
      <summary className={buttonClass("ghost")}>{t("comments.report")}</summary>
      <fetcher.Form
        method="post"
        action={`/chapter/${chapter}/comments`}
        className="flex flex-col gap-2 py-2"
      >
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="comment" value={comment} />
        <label htmlFor={reasonId} className="text-sm">
          {t("comments.reportReason")}
        </label>
        <input
          id={reasonId}
          name="reason"
          maxLength={500}
          className="min-h-11 rounded-md border border-line bg-[color:var(--surface)] px-3 py-2"
        />
        {fetcher.data?.error ? (
          <p role="alert" className="text-sm text-[#b42318] dark:text-[#ff8a80]">
            {t(fetcher.data.error)}
          </p>
        ) : null}
        <button type="submit" className={buttonClass("outline")}>
          {t("comments.reportSend")}
        </button>
      </fetcher.Form>
    </details>
  );
}
