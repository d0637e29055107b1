import { useEffect, useRef, useState } from "react";
import type { SwipeHandlers, SwipeHint } from "./swipe-tracker";

/**
 * Swipes between chapters (swipe-tracker.ts) on a touch screen. The tracker's code is fetched only where
 * there is a touch screen: a mouse or a keyboard never swipes. Returns the hint to show, if any.
 */
export function useSwipe(handlers: SwipeHandlers): SwipeHint {
  const [hint, setHint] = useState<SwipeHint>();
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    if (!(navigator.maxTouchPoints > 0)) return;
    let stop: (() => void) | undefined;
    let left = false;
    void import("./swipe-tracker").then(({ trackSwipes }) => {
      if (!left) stop = trackSwipes(current, setHint);
    });
    return () => {
      left = true;
      stop?.();
    };
  }, []);
  return hint;
}
