import { Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { lazyComponent } from "~/ui/lazy-component";
import { Link } from "~/ui/link";

// The thread's code (and the catalogue's page half) is fetched only when the reader nears the end of the
// chapter: a reader who never gets there downloads none of it, and the text paints first.
const CommentsPanel = lazyComponent(() => import("./comments-panel"), "CommentsPanel");

/**
 * Where a readable chapter's comments go. Rendered by the server as a link to the comments' own page (all a
 * reader without scripts needs); once the section comes within a screen of view, or the address names a
 * comment, the thread loads in its own request, kept for visitors apart from the chapter page.
 */
export function CommentsSlot({ chapter }: { chapter: number }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  const [wanted, setWanted] = useState<number>();
  useEffect(() => {
    const section = ref.current;
    if (!section || wanted === chapter) return;
    if (window.location.hash.startsWith("#comment")) return setWanted(chapter);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setWanted(chapter);
      },
      { rootMargin: "100% 0px" },
    );
    observer.observe(section);
    return () => observer.disconnect();
  }, [chapter, wanted]);
  const link = (
    <Link to={`/chapter/${chapter}/comments`} discover="none">
      {t("reader.comments.open")}
    </Link>
  );
  return (
    <section ref={ref} id="comments" aria-labelledby="comments-heading" className="reader-comments">
      <h2 id="comments-heading">{t("reader.comments.heading")}</h2>
      {wanted === chapter ? (
        <Suspense fallback={<p aria-busy="true">{t("reader.comments.loading")}</p>}>
          <CommentsPanel chapter={chapter} fallback={link} />
        </Suspense>
      ) : (
        link
      )}
    </section>
  );
}
