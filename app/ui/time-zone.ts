import { useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";

/**
 * The zone dates are written in: the one the page was rendered in (the root loader's, from the `tz` cookie)
 * while hydrating, so the browser's first render is the server's; after that the `tz` cookie's. They differ
 * only on a page that shows no date or time, which the page cache renders in no zone (UTC) for every reader
 * (ADR 62): a client navigation from it to a page that shows dates must still write them in the reader's zone,
 * and the root's data, loaded once, does not say it.
 */
export function useTimeZone(): string {
  const rendered = (useRouteLoaderData("root") as { timeZone?: string } | undefined)?.timeZone ?? "UTC";
  return useSyncExternalStore(
    subscribe,
    () => cookieZone() ?? rendered,
    () => rendered,
  );
}

/** The cookie is set once by the boot script (app/boot.ts) and read at each render: nothing to follow. */
const subscribe = () => () => {};

/** The `tz` cookie's zone when it is one this browser knows (an unknown one would make dates throw). */
function cookieZone(): string | undefined {
  try {
    const zone = decodeURIComponent(/(?:^|; )tz=([^;]+)/.exec(document.cookie)?.[1] ?? "");
    return zone ? new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone : undefined;
  } catch {
    return undefined;
  }
}
