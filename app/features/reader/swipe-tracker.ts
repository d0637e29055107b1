const MIN_DISTANCE = 10;
const HINT_DISTANCE = 50;
const NAVIGATE_AFTER_MS = 300;

export type SwipeHandlers = { onNext?: () => void; onPrevious?: () => void };
export type SwipeHint = "next" | "previous" | undefined;

/**
 * Touch-only swipe navigation (docs/product-rules.md "Moving between chapters"): left goes to the next chapter, right to the previous;
 * a move of 10 px counts, past 50 px a hint shows and the page changes 300 ms later. Follows the window's
 * touches until the returned function is called; `handlers` is read at each gesture, so it may change.
 */
export function trackSwipes(
  handlers: { current: SwipeHandlers },
  setHint: (hint: SwipeHint) => void,
): () => void {
  let startX = 0;
  let startY = 0;
  let tracking = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = (event: TouchEvent) => {
    const touch = event.touches[0];
    if (!touch || event.touches.length > 1) return;
    startX = touch.clientX;
    startY = touch.clientY;
    tracking = true;
  };
  const move = (event: TouchEvent) => {
    const touch = event.touches[0];
    if (!tracking || !touch) return;
    const dx = touch.clientX - startX;
    const dy = touch.clientY - startY;
    if (Math.abs(dx) < MIN_DISTANCE || Math.abs(dx) < Math.abs(dy)) return setHint(undefined);
    const direction = dx < 0 ? "next" : "previous";
    const possible = direction === "next" ? handlers.current.onNext : handlers.current.onPrevious;
    setHint(Math.abs(dx) > HINT_DISTANCE && possible ? direction : undefined);
  };
  const end = (event: TouchEvent) => {
    const touch = event.changedTouches[0];
    if (!tracking || !touch) return;
    tracking = false;
    const dx = touch.clientX - startX;
    const dy = touch.clientY - startY;
    if (Math.abs(dx) <= HINT_DISTANCE || Math.abs(dx) < Math.abs(dy)) return setHint(undefined);
    const go = dx < 0 ? handlers.current.onNext : handlers.current.onPrevious;
    if (!go) return setHint(undefined);
    timer = setTimeout(() => {
      setHint(undefined);
      go();
    }, NAVIGATE_AFTER_MS);
  };
  window.addEventListener("touchstart", start, { passive: true });
  window.addEventListener("touchmove", move, { passive: true });
  window.addEventListener("touchend", end, { passive: true });
  return () => {
    clearTimeout(timer);
    window.removeEventListener("touchstart", start);
    window.removeEventListener("touchmove", move);
    window.removeEventListener("touchend", end);
  };
}
