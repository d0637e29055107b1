import { type Ref, useState } from "react";
import { useDocumentOnly } from "~/lib/document-only";

/**
 * The chapter's sanitised HTML. On a page load the text reaches the browser once, in the HTML: the loader
 * hands it to the server render only (RequestContext.documentOnly), and the browser hydrates by keeping the
 * markup it already has. On a client navigation the text comes in the route data (`html`).
 */
export function ChapterBody({
  html,
  articleRef,
  lang,
}: {
  html: string | undefined;
  articleRef: Ref<HTMLElement>;
  /** The text's language, when not the page's (the original shown untranslated). */
  lang?: string;
}) {
  const fromServerRender = useDocumentOnly("chapterHtml");
  // Read once, at hydration, from the markup the server sent.
  const [fromDocument] = useState(() =>
    typeof document === "undefined" ? undefined : document.querySelector("[data-chapter-body]")?.innerHTML,
  );
  return (
    <article
      ref={articleRef}
      data-chapter-body=""
      lang={lang}
      className="reader-text"
      dangerouslySetInnerHTML={{ __html: html ?? fromServerRender ?? fromDocument ?? "" }}
    />
  );
}
