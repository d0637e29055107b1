import "~/i18n/full-catalogue";
import { type ReactNode, useCallback, useEffect } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "~/i18n/react";
import { CommentsThread } from "./comments-thread";
import type { CommentOrder } from "./limits";
import type { CommentsPage } from "./types";

const pathOf = (chapter: number) => (order: CommentOrder, page: number) =>
  `/chapter/${chapter}/comments?order=${order}${page > 1 ? `&page=${page}` : ""}`;

/**
 * The thread under a chapter: the comments route's data, loaded by a fetcher (React Router reloads it after
 * each comment action); another order or page loads in place. A failed load leaves the link to the page.
 */
export function CommentsPanel({ chapter, fallback }: { chapter: number; fallback: ReactNode }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<CommentsPage>();
  const { load } = fetcher;
  const go = useCallback(
    (order: CommentOrder, page: number) => void load(pathOf(chapter)(order, page)),
    [load, chapter],
  );
  useEffect(() => go("newest", 1), [go]);
  const page = fetcher.data && "comments" in fetcher.data ? fetcher.data : undefined;
  if (!page)
    return fetcher.state === "idle" && fetcher.data !== undefined ? (
      <p>{fallback}</p>
    ) : (
      <p aria-busy="true">{t("reader.comments.loading")}</p>
    );
  return (
    <div aria-busy={fetcher.state !== "idle"}>
      <CommentsThread
        page={page}
        navigation={{ href: pathOf(chapter), go }}
        signInHref={`/login?redirectTo=${encodeURIComponent(`/chapter/${chapter}#comments`)}`}
      />
    </div>
  );
}
