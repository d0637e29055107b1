import "~/i18n/full-catalogue";
import { useTranslation } from "~/i18n/react";
import type { PreviewAudience } from "./access.server";

const audiences: PreviewAudience[] = ["visitor", "reader", "unlocked", "member"];

/**
 * Over an author's preview of a chapter (`/chapter/N?as=…`, ADR 38): whom the page shows it to, the other
 * audiences, and the way back to the chapter's editor. Loaded by previews only: a reader's page has no code
 * of it. Its links are page loads, as the editor's are (the others by their query alone: this chapter's
 * address stays): each preview is rendered for its audience.
 */
export function PreviewBanner({ as, editor }: { as: PreviewAudience; editor: string }) {
  const { t } = useTranslation();
  return (
    <aside
      aria-labelledby="preview-banner"
      className="border-b border-line bg-[color:var(--bar)] py-2 text-sm"
      data-testid="preview-banner"
    >
      <div className="mx-auto flex max-w-3xl flex-wrap items-baseline gap-x-4 gap-y-1 px-4">
        <p id="preview-banner" className="font-semibold text-ink">
          {t(`admin.chapter.previewing.${as}`)}
        </p>
        <p className="flex flex-wrap gap-x-3">
          <span className="text-muted">{t("admin.chapter.previewOthers")}</span>
          {audiences
            .filter((other) => other !== as)
            .map((other) => (
              <a key={other} href={`?as=${other}`} className="underline">
                {t(`admin.chapter.audiences.${other}`)}
              </a>
            ))}
        </p>
        <a href={editor} className="font-semibold underline">
          {t("admin.chapter.backToEditor")}
        </a>
      </div>
    </aside>
  );
}
