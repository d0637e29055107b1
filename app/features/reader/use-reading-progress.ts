import { useCallback, useEffect, useRef, useState } from "react";
import { blockAt, paragraphInView } from "./blocks";
import { advance, type ChapterProgress, emptyProgress, readSecond, toggleBookmark } from "./progress";
import { startSending } from "./progress-sender";
import { loadStoredProgress, startWriting, storeProgress } from "./storage";

const ACTIVE_FOR_MS = 60_000;

/** How far through the article the reader is, 0 to 1. */
function scrollFraction(article: HTMLElement): number {
  const rect = article.getBoundingClientRect();
  const total = rect.height - window.innerHeight;
  if (total <= 0) return 1;
  return Math.min(1, Math.max(0, -rect.top / total));
}

/**
 * Tracks the reader's place in a chapter: scroll position, the paragraph in view, completion, active reading
 * time (only while the page is visible and the reader active) and bookmarks. Kept in browser storage; `onSave`
 * also hands each change to the server for signed-in readers.
 */
export function useReadingProgress(
  chapter: number,
  articleRef: React.RefObject<HTMLElement | null>,
  {
    loadAccountMerge,
    onSave,
  }: {
    /**
     * Signed-in readers: the account's record, fetched after the page shows (pages are shared, see root.tsx),
     * as its merge into this browser's record (account-progress.ts).
     */
    loadAccountMerge?: (
      chapter: number,
    ) => Promise<((local: ChapterProgress) => ChapterProgress) | undefined>;
    onSave?: (progress: ChapterProgress) => Promise<boolean>;
  },
) {
  const [progress, setProgress] = useState<ChapterProgress>(emptyProgress);
  const latest = useRef(progress);
  const lastActivity = useRef(Date.now());
  const save = useRef(onSave);
  save.current = onSave;
  const savesChapter = useRef(chapter);
  savesChapter.current = chapter;
  const flushNow = useRef<() => void>(undefined);

  const commit = useCallback(
    (next: ChapterProgress) => {
      const before = latest.current;
      latest.current = next;
      setProgress(next);
      storeProgress(chapter, next);
      // What the reader expects to see counted now, and which may earn an achievement: sent at once.
      if (next.completed !== before.completed || next.bookmarks.length !== before.bookmarks.length)
        flushNow.current?.();
    },
    [chapter],
  );

  // Restore the place by paragraph (so it survives a change of font size), then follow the scroll.
  useEffect(() => {
    const article = articleRef.current;
    if (!article) return;
    const start = loadStoredProgress(chapter);
    latest.current = start;
    setProgress(start);
    // Once the reader moves the page themselves, a late answer from the account no longer does.
    let movedByReader = false;
    const moved = () => {
      movedByReader = true;
    };
    const movers = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
    for (const type of movers) window.addEventListener(type, moved, { passive: true, once: true });
    const restore = (place: ChapterProgress) => {
      if (place.paragraph > 0 && !window.location.hash && !movedByReader) {
        blockAt(article, place.paragraph)?.scrollIntoView({ block: "start" });
      }
    };
    restore(start);
    // The account's record (another device) and this browser's: furthest progress, all bookmarks. It moves
    // the page only while the reader has not scrolled it.
    let cancelled = false;
    void loadAccountMerge?.(chapter).then((merge) => {
      if (!merge || cancelled) return;
      const merged = merge(latest.current);
      commit(merged);
      if (merged.paragraph !== start.paragraph) restore(merged);
    });
    let frame = 0;
    const onScroll = () => {
      lastActivity.current = Date.now();
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        commit(advance(latest.current, scrollFraction(article), paragraphInView(article), new Date()));
      });
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      cancelled = true;
      for (const type of movers) window.removeEventListener(type, moved);
      window.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, [chapter, articleRef, commit, loadAccountMerge]);

  // Reading time counts only while the page is visible and the reader has been active in the last minute.
  useEffect(() => {
    const stopWriting = startWriting();
    const active = () => {
      lastActivity.current = Date.now();
    };
    for (const type of ["pointerdown", "keydown", "touchstart"])
      window.addEventListener(type, active, { passive: true });
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible" || Date.now() - lastActivity.current > ACTIVE_FOR_MS) return;
      const next = readSecond(latest.current, new Date());
      latest.current = next;
      storeProgress(chapter, next);
    }, 1000);
    return () => {
      clearInterval(timer);
      for (const type of ["pointerdown", "keydown", "touchstart"]) window.removeEventListener(type, active);
      stopWriting();
    };
  }, [chapter]);

  // Hand changes to the server at most every 15 s while reading, at once for a bookmark or the end reached
  // or the network back, and once more when the page is left (hidden, closed, or a navigation away from the chapter).
  useEffect(() => {
    // This chapter's sender: on a navigation to another chapter (the same page, new props) the cleanup below
    // sends the record of the chapter being left, with its own sender, not the next chapter's.
    let chapterSave = save.current;
    const sending = startSending(
      () => latest.current,
      () => {
        if (savesChapter.current === chapter) chapterSave = save.current;
        return chapterSave;
      },
    );
    flushNow.current = sending.flush;
    const onHide = () => {
      if (document.visibilityState === "hidden") sending.flush();
    };
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", sending.flush);
    // Read offline (ADR 96): the record kept meanwhile goes as soon as the network is back. It is whole each
    // time (reading time is a total the server counts only beyond what it has), so a send repeated counts once.
    window.addEventListener("online", sending.flush);
    return () => {
      flushNow.current = undefined;
      sending.stop();
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", sending.flush);
      window.removeEventListener("online", sending.flush);
    };
  }, [chapter]);

  const toggle = useCallback(
    (paragraph: number) => commit(toggleBookmark(latest.current, paragraph, new Date())),
    [commit],
  );
  const currentParagraph = () => {
    const article = articleRef.current;
    if (!article) return 0;
    return paragraphInView(article);
  };
  return { progress, toggleBookmark: toggle, currentParagraph };
}
