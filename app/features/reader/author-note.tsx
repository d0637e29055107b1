import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/react";
import type { ChapterNotes } from "./notes.server";

/**
 * An author's note before or after the chapter's text (ADR 95): a <details> whose summary says "Author's
 * note", open when the reader's setting is "in full". The server renders it open for a signed-in reader
 * whose setting says so (their kept pages are chosen by their settings); a visitor's setting is on <html>
 * (`data-author-notes`, set by the head script from storage), which app.css follows until the page has
 * started (`data-live`), so the note shows as chosen before hydration and the summary toggles it after.
 */
export function AuthorNote({
  notes,
  open,
  place,
}: {
  /** The chapter's notes (absent: none), as the loader gives them. */
  notes: ChapterNotes | undefined;
  open: boolean;
  place: "before" | "after";
}) {
  const { t } = useTranslation();
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const html = notes?.[place];
  if (!html) return null;
  return (
    <details className="author-note" open={open} data-place={place} data-live={live ? "" : undefined}>
      <summary>{t("reader.authorNote")}</summary>
      <div
        className="author-note-text"
        lang={notes.lang?.[place]}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </details>
  );
}
