// Types for the load model's parts the tests use (evening-traffic.test.ts).
import type { ChapterProgress } from "../app/features/reader/progress";

export declare function hookCadenceMs(source?: string): number;
export declare function progressBody(chapter: number, progress: ChapterProgress, view?: string): string;
export declare function progressRequest(
  chapter: number,
  progress: ChapterProgress,
  view?: string,
): { path: string; method: string; headers: Record<string, string>; body: string };
export declare function progressAt(
  previous: ChapterProgress,
  seconds: number,
  fraction: number,
  paragraphs: number,
  now: Date,
): ChapterProgress;
export declare function emptyProgress(): ChapterProgress;
export declare function discoveredPaths(html: string): string[];
export declare function startOfEvening(random: () => number): {
  from?: number;
  skipChapter?: boolean;
  away?: number;
};
type Run = {
  http: (request: { label: string }) => Promise<{ status: number; text: string }>;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  site: unknown;
  cadenceMs: number;
  until: () => number;
};
export declare function readerEvening(run: Run, start: ReturnType<typeof startOfEvening>): Promise<void>;
