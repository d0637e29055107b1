import { useEffect, useRef } from "react";

/**
 * Arrow keys and j (next) / k (previous) move between chapters on a keyboard (not while typing or with a
 * dialog open).
 */
export function useChapterKeys({
  chapter,
  goNext,
  goPrevious,
  dialogOpen,
}: {
  chapter: number;
  goNext?: () => void;
  goPrevious?: () => void;
  dialogOpen: boolean;
}) {
  const keyNavigated = useRef<number | undefined>(undefined);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || dialogOpen) return;
      if (
        event.target instanceof HTMLElement &&
        event.target.closest("input, textarea, select, [contenteditable]")
      )
        return;
      // Between a navigation's URL change and its render this page is no longer the one shown.
      // One key, one chapter: keys pressed before the next chapter has rendered are ignored.
      if (keyNavigated.current === chapter || window.location.pathname !== `/chapter/${chapter}`) return;
      const go =
        event.key === "ArrowRight" || event.key === "j"
          ? goNext
          : event.key === "ArrowLeft" || event.key === "k"
            ? goPrevious
            : undefined;
      if (!go) return;
      keyNavigated.current = chapter;
      go();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
}
