import "~/i18n/full-catalogue";
import { ReadingChoices } from "~/features/reading-settings/options";
import { defaultSettings, type ReadingSettings, showSettings } from "~/features/reading-settings/settings";
import { useTranslation } from "~/i18n/react";
import { firstWords } from "~/lib/words";
import { buttonClass } from "~/ui/button";
import { Modal } from "~/ui/modal";
import { blockAt } from "./blocks";
import { storeSettings } from "./storage";

/** A bookmarked paragraph's first words, read from the chapter on the page (the sheet opens over it). */
function paragraphOpening(paragraph: number): string {
  return firstWords(blockAt(document.querySelector("[data-chapter-body]"), paragraph)?.textContent ?? "");
}

/**
 * The reader's settings as an accessible bottom sheet; changes apply at once: on the page (`<html>`'s data
 * attributes), in browser storage, and for a signed-in reader in the account (here, so that the chapter
 * page's own code, which every reader downloads, does not carry it: ADR 48).
 */
export function SettingsSheet({
  open,
  onOpenChange,
  settings,
  onChange,
  signedIn,
  onTextChange,
  bookmarks,
  onJump,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  settings: ReadingSettings;
  /** The page's state of the settings, given each change. */
  onChange: (settings: ReadingSettings) => void;
  signedIn: boolean;
  /**
   * A translated chapter's text to be asked again once a signed-in reader's account holds a new side-by-side
   * choice (ADR 97; a visitor's goes by the cookie the page writes).
   */
  onTextChange?: () => void;
  bookmarks: number[];
  onJump: (paragraph: number) => void;
}) {
  const { t } = useTranslation();
  const apply = (next: ReadingSettings) => {
    const textChanges = onTextChange && next.sideBySide !== settings.sideBySide;
    onChange(next);
    showSettings(next);
    storeSettings(next);
    if (signedIn) {
      const body = new URLSearchParams(Object.entries(next).map(([key, value]) => [key, String(value)]));
      void fetch("/reader/settings", { method: "POST", body })
        .then(() => textChanges && onTextChange())
        .catch(() => {});
    }
  };
  return (
    <Modal
      open={open}
      onClose={() => onOpenChange(false)}
      labelledBy="reader-settings-title"
      className="bottom-sheet fixed inset-x-0 top-auto bottom-0 mx-auto mb-0 max-h-[85dvh] w-full max-w-2xl flex-col gap-5 overflow-y-auto rounded-t-2xl border border-line bg-sheet p-6 text-ink shadow-2xl open:flex"
    >
      <div className="flex items-center justify-between">
        <h2 id="reader-settings-title" className="font-display text-xl text-primary">
          {t("readerPanels.settings.title")}
        </h2>
        <button type="button" className={buttonClass("ghost")} onClick={() => onOpenChange(false)}>
          {t("readerPanels.settings.close")}
        </button>
      </div>
      <ReadingChoices settings={settings} onChange={apply} />
      <button
        type="button"
        className={buttonClass("outline", "self-start")}
        onClick={() => apply(defaultSettings)}
      >
        {t("readerPanels.settings.reset")}
      </button>
      <section aria-labelledby="bookmarks-title">
        <h3 id="bookmarks-title" className="mb-2 font-display text-sm tracking-wide">
          {t("readerPanels.bookmarks.title")}
        </h3>
        {bookmarks.length === 0 ? (
          <p className="text-muted">{t("readerPanels.bookmarks.empty")}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {bookmarks.map((paragraph) => (
              <li key={paragraph}>
                <button
                  type="button"
                  className="flex min-h-11 w-full flex-col items-start rounded-md border border-line px-3 py-2 text-left hover:border-primary"
                  onClick={() => {
                    onOpenChange(false);
                    onJump(paragraph);
                  }}
                >
                  <span className="text-xs text-muted">
                    {t("readerPanels.bookmarks.paragraph", { number: paragraph + 1 })}
                  </span>
                  <span>{paragraphOpening(paragraph)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Modal>
  );
}
