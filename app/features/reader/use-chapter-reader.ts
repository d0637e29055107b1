import { useCallback, useEffect, useState } from "react";
import { useNavigate, useRouteLoaderData } from "react-router";
import { defaultSettings, type ReadingSettings, showSettings } from "~/features/reading-settings/settings";
import { loadAccountProgress, sendProgress } from "./account-progress";
import type { ChapterProgress } from "./progress";
import { loadStoredSettings, storeSettings } from "./storage";
import { useChapterKeys } from "./use-chapter-keys";
import { useReadingProgress } from "./use-reading-progress";
import { useSwipe } from "./use-swipe";

type ChapterFacts = { number: number; next?: number | null; previous?: number | null; locked: boolean };

/**
 * The chapter page's controller: reading settings, progress (browser storage, and the account for signed-in
 * readers of an open chapter), bookmark marks in the margin, and moving between chapters by key or swipe.
 */
export function useChapterReader({
  chapter,
  signedIn,
  articleRef,
  dialogOpen,
}: {
  chapter: ChapterFacts;
  signedIn: boolean;
  articleRef: React.RefObject<HTMLElement | null>;
  dialogOpen: boolean;
}) {
  const navigate = useNavigate();
  // Signed-in readers' settings come with the root loader (rendered on <html>); visitors' from storage.
  const root = useRouteLoaderData("root") as { readingSettings?: ReadingSettings | null } | undefined;
  const [settings, setSettings] = useState<ReadingSettings>(root?.readingSettings ?? defaultSettings);

  useEffect(() => {
    if (!signedIn) setSettings(loadStoredSettings());
  }, [signedIn]);

  const applySettings = (next: ReadingSettings) => {
    setSettings(next);
    showSettings(next);
    storeSettings(next);
    if (signedIn) {
      const body = new URLSearchParams(Object.entries(next).map(([key, value]) => [key, String(value)]));
      void fetch("/reader/settings", { method: "POST", body }).catch(() => {});
    }
  };

  const onSave = useCallback(
    (progress: ChapterProgress) => sendProgress(chapter.number, progress),
    [chapter.number],
  );
  const synced = signedIn && !chapter.locked;
  const { progress, toggleBookmark, currentParagraph } = useReadingProgress(chapter.number, articleRef, {
    loadAccountProgress: synced ? loadAccountProgress : undefined,
    onSave: synced ? onSave : undefined,
  });

  const goNext = chapter.next ? () => navigate(`/chapter/${chapter.next}`) : undefined;
  const goPrevious = chapter.previous ? () => navigate(`/chapter/${chapter.previous}`) : undefined;
  const hint = useSwipe({ onNext: goNext, onPrevious: goPrevious });
  useChapterKeys({ chapter: chapter.number, goNext, goPrevious, dialogOpen });

  // Bookmarked paragraphs carry a mark in the margin.
  useEffect(() => {
    const marks = new Set(progress.bookmarks.map(String));
    for (const block of articleRef.current?.querySelectorAll<HTMLElement>("[data-p]") ?? []) {
      block.toggleAttribute("data-bookmarked", marks.has(block.dataset.p ?? ""));
    }
  }, [progress.bookmarks, articleRef]);

  const jump = (paragraph: number) =>
    articleRef.current?.querySelector(`[data-p="${paragraph}"]`)?.scrollIntoView({ block: "start" });

  return { settings, applySettings, progress, toggleBookmark, currentParagraph, hint, jump };
}
