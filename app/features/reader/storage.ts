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
