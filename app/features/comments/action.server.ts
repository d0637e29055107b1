import { data, redirect } from "react-router";
import type { SessionUser } from "~/features/auth/session.server";
import type { RequestContext } from "~/lib/context";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import {
  type CommentOutcome,
  type CommentRefusal,
  deleteOwnComment,
  editComment,
  postComment,
  reportComment,
  setHeart,
} from "./commands.server";
import type { CommentActionData } from "./comment-form";
import {
  COMMENT_LIMITS,
  commentIdSchema,
  commentIntents,
  editSchema,
  heartSchema,
  postSchema,
  reportSchema,
} from "./limits";
import { commentAccess } from "./queries.server";

const statusOf: Record<CommentRefusal, number> = {
  banned: 403,
  unconfirmed: 403,
  rateLimited: 429,
  linksTooSoon: 400,
  parentGone: 409,
  notFound: 404,
  editWindow: 409,
  ownComment: 400,
};

/**
 * The comments action of chapter `number` (ADR 47): post, edit, delete, heart, report. The reader must be
 * signed in and able to read the chapter (the chapter page's rule). A script's request (a fetcher) gets the
 * outcome as data; a form posted without scripts is sent back to the thread (at the comment), or shown
 * again with the refusal and its text when refused.
 */
export async function answerComments(
  request: Request,
  number: number,
  user: SessionUser | undefined,
  context: Pick<RequestContext, "documentRequest">,
) {
  const form = await readForm(request);
  const intent = commentIntents.find((known) => known === form.get("intent"));
  const body = echoedValue(form, "body", COMMENT_LIMITS.bodyMax * 2);
  const refuse = (error: string, status: number, extra: Partial<CommentActionData> = {}) =>
    data<CommentActionData>(
      { ok: false, intent, error, body, ...extra },
      {
        status,
        headers: extra.retryAfterSeconds ? { "Retry-After": String(extra.retryAfterSeconds) } : undefined,
      },
    );
  if (!intent) return refuse("comments.errors.unknown", 400);
  if (!user) return refuse("comments.errors.signIn", 401);
  const access = await commentAccess(number, user);
  if (!access.ok)
    return access.reason === "locked"
      ? refuse("comments.errors.locked", 403)
      : refuse("comments.errors.notFound", 404);

  let outcome: CommentOutcome;
  if (intent === "post" || intent === "edit") {
    const parsed = parseForm(intent === "post" ? postSchema : editSchema, form);
    if (!parsed.ok) {
      const [field, error = "comments.errors.unknown"] = Object.entries(parsed.errors)[0] ?? [];
      return refuse(error.startsWith("comments.") ? error : "comments.errors.unknown", 400, { field });
    }
    outcome =
      intent === "post"
        ? await postComment(
            user,
            access.chapterId,
            parsed.data as { body: string; spoiler: boolean; parent?: number },
          )
        : await editComment(
            user,
            access.chapterId,
            parsed.data as { comment: number; body: string; spoiler: boolean },
          );
  } else if (intent === "heart") {
    const parsed = parseForm(heartSchema, form);
    if (!parsed.ok) return refuse("comments.errors.unknown", 400);
    outcome = await setHeart(user, access.chapterId, parsed.data.comment, parsed.data.on === "1");
  } else if (intent === "report") {
    const parsed = parseForm(reportSchema, form);
    if (!parsed.ok) return refuse(Object.values(parsed.errors)[0] ?? "comments.errors.unknown", 400);
    outcome = await reportComment(user, access.chapterId, parsed.data.comment, parsed.data.reason);
  } else {
    const parsed = parseForm(commentIdSchema, form);
    if (!parsed.ok) return refuse("comments.errors.unknown", 400);
    outcome = await deleteOwnComment(user, access.chapterId, parsed.data.comment);
  }

  if (!outcome.ok)
    return refuse(`comments.errors.${outcome.reason}`, statusOf[outcome.reason], {
      retryAfterSeconds: outcome.retryAfterSeconds,
    });
  if (!context.documentRequest) return data<CommentActionData>({ ok: true, intent });
  const back = new URL(request.url);
  const anchor = intent === "delete" ? "" : `#comment-${outcome.id}`;
  return redirect(`/chapter/${number}/comments${back.search}${anchor}`);
}
