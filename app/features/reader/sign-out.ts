import type { FormEvent } from "react";
import { useSubmit } from "react-router";
import { STORAGE_KEY } from "~/features/reading-settings/settings";

/**
 * The submit handler of a form that signs the reader out (logout, signing out everywhere): once the
 * signed-out page shows, what this browser kept of their reading (progress, bookmarks, settings: all of it
 * is the account's) is forgotten, so the next person at this browser does not see it. Only then: a chapter
 * page still open while the request runs keeps writing its place. A visitor who never signed in keeps theirs.
 * Here rather than in the layout, so that no page's first download carries it (ADR 12).
 */
export function useForgetReadingOnSignOut(then?: () => void) {
  const submit = useSubmit();
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit(event.currentTarget).then(() => {
      try {
        localStorage.removeItem(STORAGE_KEY);
      } catch {
        // Storage disabled: nothing was kept.
      }
    });
    then?.();
  };
}
