import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";
import { useFormat } from "~/ui/use-format";

/**
 * The editor's two notices about unsaved work (the chapter's and a translation's): the session ended while
 * autosaving (sign in again in another tab, nothing typed is lost), and a kept draft newer than the last save,
 * offered back (`onRestore`) unless `offerDraft` is false (after a save or once restored).
 */
export function DraftNotices({
  sessionEnded,
  draft,
  offerDraft,
  onRestore,
}: {
  sessionEnded: boolean;
  draft: { savedAt: string } | undefined;
  offerDraft: boolean;
  onRestore: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      {sessionEnded ? (
        <FormAlert>
          {t("admin.chapter.sessionEnded")}{" "}
          <a href="/login" target="_blank" rel="noopener" className="underline">
            {t("admin.chapter.signInAgain")}
          </a>
        </FormAlert>
      ) : null}
      {draft && offerDraft ? (
        <div
          role="status"
          className="flex flex-wrap items-center gap-3 rounded-md border border-primary px-4 py-3"
        >
          <span>
            {t("admin.chapter.draftFound", {
              at: format.date(draft.savedAt, { dateStyle: "medium", timeStyle: "medium" }),
            })}
          </span>
          <button type="button" className={buttonClass("outline")} onClick={onRestore}>
            {t("admin.chapter.restoreDraft")}
          </button>
        </div>
      ) : null}
    </>
  );
}
