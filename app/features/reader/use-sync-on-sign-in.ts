import { useEffect } from "react";
import { loadAllStoredProgress, loadSyncMark, storeSyncMark } from "./storage";

/**
 * What a visitor read in this browser joins their account once they sign in: every chapter record newer
 * than the last hand-over is sent, and the server merges it (furthest progress, union of bookmarks).
 */
export function useSyncOnSignIn(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn) return;
    const since = loadSyncMark();
    const entries = Object.entries(loadAllStoredProgress())
      .filter(([, progress]) => progress.lastReadAt > since)
      .map(([chapter, progress]) => ({ chapter: Number(chapter), progress }));
    if (entries.length === 0) return;
    const startedAt = new Date().toISOString();
    fetch("/reader/progress", {
      method: "POST",
      body: JSON.stringify({ entries }),
      headers: { "Content-Type": "application/json" },
    })
      .then((response) => {
        if (response.ok) storeSyncMark(startedAt);
      })
      .catch(() => {
        // Offline: the next page load tries again.
      });
  }, [signedIn]);
}
