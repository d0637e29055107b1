import { loadAllStoredProgress, readStored, updateStored } from "./storage";

/** When this browser's progress was last handed to the account (sign-in merge). */
function loadSyncMark(): string {
  return readStored().syncedAt ?? new Date(0).toISOString();
}

function storeSyncMark(at: string) {
  updateStored((stored) => ({ ...stored, syncedAt: at }));
}

/**
 * Sends what a visitor read in this browser to the account they signed in to: every chapter record newer
 * than the last hand-over; the server merges it (furthest progress, union of bookmarks).
 */
export function syncStoredProgress() {
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
      // 403/404: the server kept the rest and refused chapters this account may not open (or that are gone),
      // which a second try would not change.
      if (response.ok || response.status === 403 || response.status === 404) storeSyncMark(startedAt);
    })
    .catch(() => {
      // Offline: the next page load tries again.
    });
}
