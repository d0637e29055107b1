import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/** While a returned payment waits for the provider's confirmation, looks again every two seconds (a minute at most). */
export function useRecheckWhilePending(pending: boolean) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (!pending) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries++;
      if (tries > 30) clearInterval(timer);
      else if (latest.current.state === "idle") void latest.current.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [pending]);
}
