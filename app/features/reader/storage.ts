import {
  defaultSettings,
  parseSettings,
  type ReadingSettings,
  STORAGE_KEY,
} from "~/features/reading-settings/settings";
import { type ChapterProgress, emptyProgress, parseProgress } from "./progress";

/** A visitor's reading data in browser storage, under one key. Broken or foreign data reads as empty. */
type Stored = { settings?: ReadingSettings; chapters?: Record<string, ChapterProgress>; syncedAt?: string };

function read(): Stored {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Stored;
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

function write(update: (stored: Stored) => Stored) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(update(read())));
  } catch {
    // Storage full or disabled: reading goes on, the place is just not kept.
  }
}

// Chapter pages open and writing their place (see forgetStoredReading).
let writers = 0;
const afterWriters: (() => void)[] = [];

/** A chapter page writes its place while it is open: call on mount, and the result on unmount. */
export function startWriting(): () => void {
  writers++;
  return () => {
    writers--;
    if (writers === 0) for (const run of afterWriters.splice(0)) run();
  };
}

/**
 * Forgets all of this browser's reading, once no open chapter page can write it back: after signing out,
 * the page that sent the form may still be shown (and counting reading time) until the next one renders.
 * The chapter pages kept for reading offline go too.
 */
export function forgetStoredReading() {
  const forget = () => {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Storage disabled: nothing was kept.
    }
    void forgetKeptPages();
  };
  if (writers === 0) forget();
  else afterWriters.push(forget);
}

/** The chapter pages the offline worker kept (public/sw.js, ADR 96): all of its caches. */
export async function forgetKeptPages(): Promise<void> {
  try {
    const keys = await caches.keys();
    await Promise.all(keys.map((key) => caches.delete(key)));
  } catch {
    // No Cache Storage (an insecure origin, an old browser): nothing was kept.
  }
}

export function loadStoredSettings(): ReadingSettings {
  return parseSettings(read().settings) ?? defaultSettings;
}

export function storeSettings(settings: ReadingSettings) {
  write((stored) => ({ ...stored, settings }));
}

export function loadStoredProgress(chapter: number): ChapterProgress {
  return parseProgress(read().chapters?.[chapter]) ?? emptyProgress();
}

export function storeProgress(chapter: number, progress: ChapterProgress) {
  write((stored) => ({ ...stored, chapters: { ...stored.chapters, [chapter]: progress } }));
}

export function loadAllStoredProgress(): Record<string, ChapterProgress> {
  const chapters = read().chapters ?? {};
  return Object.fromEntries(
    Object.entries(chapters).flatMap(([key, value]) => {
      const parsed = parseProgress(value);
      return parsed ? [[key, parsed]] : [];
    }),
  );
}

/** When this browser's progress was last handed to the account (sign-in merge). */
export function loadSyncMark(): string {
  return read().syncedAt ?? new Date(0).toISOString();
}

export function storeSyncMark(at: string) {
  write((stored) => ({ ...stored, syncedAt: at }));
}
