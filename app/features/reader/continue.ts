import type { ChapterProgress } from "./progress";

export type ProgressMark = { completed: boolean; percent: number; lastReadAt: string };

export function toMarks(progress: Record<string, ChapterProgress>): Record<number, ProgressMark> {
  return Object.fromEntries(
    Object.entries(progress).map(([number, p]) => [
      Number(number),
      { completed: p.completed, percent: p.completionPercentage, lastReadAt: p.lastReadAt },
    ]),
  );
}

/**
 * Where "Continue reading" leads: the most recently read chapter if unfinished, otherwise the next readable
 * chapter after it. Undefined when nothing has been read yet.
 */
export function continueTarget(marks: Record<number, ProgressMark>, readable: number[]): number | undefined {
  const latest = Object.entries(marks)
    .filter(([, mark]) => mark.percent > 0 || mark.completed)
    .sort(([, a], [, b]) => (a.lastReadAt < b.lastReadAt ? 1 : -1))[0];
  if (!latest) return undefined;
  const number = Number(latest[0]);
  if (!latest[1].completed) return number;
  return readable.find((candidate) => candidate > number);
}
