import { useFetcher } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import type { BetaState } from "./queries.server";

/**
 * The chapter editor's "for beta readers" switch (ADR 83), sent to the chapter's feedback page without
 * leaving the editor, with a link to the notes. A published chapter can only be unmarked.
 */
export function BetaMarkForm({
  id,
  state,
  onNotesPage = false,
}: {
  id: number;
  state: BetaState;
  /** Shown on the notes page itself: no link to it. */
  onNotesPage?: boolean;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ error?: string }>();
  const pending = fetcher.state !== "idle";
  const mayMark = state.status === "draft" || state.betaReaders;
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-line p-4" data-testid="beta-mark">
      <h2 className="font-display text-lg">{t("beta.admin.title")}</h2>
      {fetcher.data?.error ? <FormAlert>{t(fetcher.data.error)}</FormAlert> : null}
      {mayMark ? (
        <fetcher.Form
          method="post"
          action={`/admin/chapters/${id}/feedback`}
          className="flex flex-wrap items-center gap-3"
          key={String(state.betaReaders)}
        >
          <input type="hidden" name="intent" value="mark" />
          <label className="flex min-h-11 items-center gap-2">
            <input
              type="checkbox"
              name="betaReaders"
              defaultChecked={state.betaReaders}
              className="h-5 w-5 accent-[color:var(--primary)]"
            />
            {t("beta.admin.mark")}
          </label>
          <button type="submit" className={buttonClass("outline")} disabled={pending}>
            {t("beta.admin.saveMark")}
          </button>
        </fetcher.Form>
      ) : (
        <p className="text-sm text-muted">{t("beta.admin.draftsOnly")}</p>
      )}
      <p className="text-sm text-muted">{t("beta.admin.hint")}</p>
      <p className="flex flex-wrap gap-4">
        {onNotesPage ? null : (
          <Link to={`/admin/chapters/${id}/feedback`} className="underline">
            {t("beta.admin.feedbackLink", { count: state.feedback })}
          </Link>
        )}
        {state.betaReaders && state.status === "draft" ? (
          <Link to={`/beta/${state.number}`} className="underline">
            {t("beta.admin.open")}
          </Link>
        ) : null}
      </p>
    </section>
  );
}
