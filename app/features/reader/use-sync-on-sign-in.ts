import { useEffect } from "react";

/**
 * What a visitor read in this browser joins their account once they sign in (sync-on-sign-in.ts, fetched
 * only by signed-in readers).
 */
export function useSyncOnSignIn(signedIn: boolean) {
  useEffect(() => {
    if (signedIn) void import("./sync-on-sign-in").then(({ syncStoredProgress }) => syncStoredProgress());
  }, [signedIn]);
}
