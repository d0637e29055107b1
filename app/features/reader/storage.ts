import {
  defaultSettings,
  parseSettings,
  type ReadingSettings,
  STORAGE_KEY,
} from "~/features/reading-settings/settings";
import { type ChapterProgress, emptyProgress, parseProgress } from "./progress";

/** A visitor's reading data in browser storage, under one key. Broken or foreign data reads as empty. */
export type Stored = {
  settings?: ReadingSettings;
  chapters?: Record<string, ChapterProgress>;
  syncedAt?: string;
};

export function readStored(): Stored {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Stored;
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

export function updateStored(update: (stored: Stored) => Stored) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(update(readStored())));
  } catch {
    // Storage full or disabled: reading goes on, the place is just not kept.
  }
}

// Chapter pages open and writing their place (see afterWriters).
let writers = 0;
const pendingAfterWriters: (() => void)[] = [];

/** A chapter page writes its place while it is open: call on mount, and the result on unmount. */
export function startWriting(): () => void {
  writers++;
  return () => {
    writers--;
    if (writers === 0) for (const run of pendingAfterWriters.splice(0)) run();
  };
}

/** Runs `run` once no chapter page is open to write its place back (at once if none is). */
export function afterWriters(run: () => void) {
  if (writers === 0) run();
  else pendingAfterWriters.push(run);
}

export function loadStoredSettings(): ReadingSettings {
  return parseSettings(readStored().settings) ?? defaultSettings;
}

export function storeSettings(settings: ReadingSettings) {
  updateStored((stored) => ({ ...stored, settings }));
}

export function loadStoredProgress(chapter: number): ChapterProgress {
  return parseProgress(readStored().chapters?.[chapter]) ?? emptyProgress();
}

export function storeProgress(chapter: number, progress: ChapterProgress) {
  updateStored((stored) => ({ ...stored, chapters: { ...stored.chapters, [chapter]: progress } }));
}

export function loadAllStoredProgress(): Record<string, ChapterProgress> {
  const chapters = readStored().chapters ?? {};
  return Object.fromEntries(
    Object.entries(chapters).flatMap(([key, value]) => {
      const parsed = parseProgress(value);
      return parsed ? [[key, parsed]] : [];
    }),
  );
}
