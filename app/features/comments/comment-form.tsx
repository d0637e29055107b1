import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { useFormat } from "~/ui/use-format";
import { COMMENT_LIMITS } from "./limits";

/** What the comments action answers a script (a fetcher); a form without one is redirected instead. */
export type CommentActionData = {
  ok: boolean;
  intent?: string;
  /** A refusal's catalogue key, and the field it belongs to when it is a field's. */
  error?: string;
  field?: string;
  retryAfterSeconds?: number;
  /** The text as sent, when refused, so nothing typed is lost. */
  body?: string;
};

const textareaClass =
  "min-h-28 w-full rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink aria-[invalid=true]:border-[#c0392b]";

/**
 * A form that writes a comment: a new one, a reply (`parent`) or an edit (`comment`). It posts to the
 * chapter's comments action; with scripts it stays on the page (a fetcher) and empties once accepted, without
 * them the browser posts it and is sent back to the thread. A refusal says why and keeps the text.
 */
export function CommentForm({
  chapter,
  intent,
  parent,
  comment,
  initial = "",
  initialSpoiler = false,
  submitLabel,
  serverError,
  onDone,
}: {
  chapter: number;
  intent: "post" | "edit";
  parent?: number;
  comment?: number;
  initial?: string;
  initialSpoiler?: boolean;
  submitLabel: string;
  /** A refusal shown by the server-rendered page (no script): its key and the text as sent. */
  serverError?: CommentActionData;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const id = useId();
  const fetcher = useFetcher<CommentActionData>();
  const formRef = useRef<HTMLFormElement>(null);
  const answer = fetcher.data ?? serverError;
  const error = answer && !answer.ok ? answer.error : undefined;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) {
      if (intent === "post") formRef.current?.reset();
      onDone?.();
    }
  }, [fetcher.state, fetcher.data, intent, onDone]);
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={`/chapter/${chapter}/comments`}
      className="flex flex-col gap-2"
      aria-busy={fetcher.state !== "idle"}
    >
      <input type="hidden" name="intent" value={intent} />
      {parent ? <input type="hidden" name="parent" value={parent} /> : null}
      {comment ? <input type="hidden" name="comment" value={comment} /> : null}
      <label htmlFor={`${id}-body`} className="font-display text-sm tracking-wide">
        {parent ? t("comments.form.reply") : t("comments.form.label")}
      </label>
      <textarea
        id={`${id}-body`}
        name="body"
        required
        maxLength={COMMENT_LIMITS.bodyMax}
        defaultValue={answer && !answer.ok && answer.body !== undefined ? answer.body : initial}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className={textareaClass}
      />
      <p id={`${id}-hint`} className="text-sm text-muted">
        {t("comments.form.hint", { max: format.number(COMMENT_LIMITS.bodyMax) })}
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-[#b42318] dark:text-[#ff8a80]">
          {t(error, { seconds: answer?.retryAfterSeconds ?? 60 })}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            name="spoiler"
            value="on"
            defaultChecked={initialSpoiler}
            className="h-5 w-5 accent-[color:var(--primary)]"
          />
          {t("comments.form.spoiler")}
        </label>
        <button type="submit" className={buttonClass("primary")} disabled={fetcher.state !== "idle"}>
          {submitLabel}
        </button>
      </div>
    </fetcher.Form>
  );
}
