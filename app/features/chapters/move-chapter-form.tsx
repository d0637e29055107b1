import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Field, FormAlert } from "~/ui/form";
import { CHAPTER_LIMITS } from "./chapter-form";

/**
 * "Move to another number" on a chapter's page (ADR 39). `error`: why the last move was refused (a message
 * key); `to`: the number then typed, kept.
 */
export function MoveChapterForm({ number, error, to }: { number: number; error?: string; to?: string }) {
  const { t } = useTranslation();
  return (
    <details className="rounded-xl border border-line p-4" open={Boolean(error)}>
      <summary className="cursor-pointer font-display">{t("admin.chapter.move.title")}</summary>
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      <Form method="post" className="mt-3 flex flex-col gap-3">
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="from" value={number} />
        <p className="text-sm text-muted">{t("admin.chapter.move.hint")}</p>
        <Field
          name="to"
          type="number"
          min={1}
          max={CHAPTER_LIMITS.number}
          label={t("admin.chapter.move.to")}
          defaultValue={to ?? String(number)}
          required
        />
        <button type="submit" className={`${buttonClass("outline")} self-start`}>
          {t("admin.chapter.move.submit")}
        </button>
      </Form>
    </details>
  );
}
