import type { FormEvent } from "react";
import { useSubmit } from "react-router";
import { STORAGE_KEY } from "~/features/reading-settings/settings";
import { afterWriters } from "./storage";

/**
 * The submit handler of a form that signs the reader out (logout, signing out everywhere): once the
 * signed-out page shows, what this browser kept of their reading (progress, bookmarks, settings: all of it
 * is the account's; and the chapter pages kept for reading offline, ADR 96) is forgotten, so the next person at this browser does not see it. Only then, and once a chapter page
 * still open has gone: it keeps writing its place until the next page renders. A visitor who never signed in keeps theirs.
 * Here rather than in the layout, so that no page's first download carries it (ADR 12).
 */
export function useForgetReadingOnSignOut(then?: () => void) {
  const submit = useSubmit();
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit(event.currentTarget).then(forgetStoredReading);
    then?.();
  };
}

/**
 * Forgets all of this browser's reading, once no open chapter page can write it back: after signing out,
 * the page that sent the form may still be shown (and counting reading time) until the next one renders.
 * The chapter pages kept for reading offline go too.
 */
export function forgetStoredReading() {
  afterWriters(() => {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Storage disabled: nothing was kept.
    }
    void forgetKeptPages();
  });
}

/** The chapter pages the offline worker kept (public/sw.js, ADR 96): all of its caches. */
async function forgetKeptPages(): Promise<void> {
  try {
    const keys = await caches.keys();
    await Promise.all(keys.map((key) => caches.delete(key)));
  } catch {
    // No Cache Storage (an insecure origin, an old browser): nothing was kept.
  }
}
