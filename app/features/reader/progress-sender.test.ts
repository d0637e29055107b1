import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { advance, emptyProgress, readSecond, toggleBookmark } from "./progress";
import { SAVE_EVERY_MS, startSending } from "./progress-sender";

describe("the chapter page's progress sends (ADR 67)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse("2026-11-27T12:00:00.000Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A reader reading (a second of reading and a little scroll every second) for `seconds`. */
  function read(seconds: number, state: { progress: ReturnType<typeof emptyProgress> }) {
    for (let s = 0; s < seconds; s++) {
      vi.advanceTimersByTime(1000);
      const now = new Date();
      state.progress = readSecond(advance(state.progress, (s % 100) / 100, s, now), now);
    }
  }

  it("sends at most every 15 s while the reader reads, and once on leaving", async () => {
    const sent: number[] = [];
    const state = { progress: emptyProgress() };
    const sending = startSending(
      () => state.progress,
      () => async (progress) => {
        sent.push(progress.readingTime);
        return true;
      },
    );
    expect(SAVE_EVERY_MS).toBe(15_000);
    read(60, state);
    // A minute's reading: four sends, not sixty; each carries the whole record so far.
    expect(sent).toEqual([14, 29, 44, 59]);
    read(7, state);
    expect(sent).toHaveLength(4);
    sending.stop();
    expect(sent).toEqual([14, 29, 44, 59, 67]);
    // Nothing changed since: leaving again (pagehide after hidden) sends nothing more, nor does time.
    sending.flush();
    vi.advanceTimersByTime(60_000);
    expect(sent).toHaveLength(5);
  });

  it("sends at once when asked (a bookmark), and retries a failed send at the next tick", async () => {
    const sent: number[][] = [];
    let online = false;
    const state = { progress: emptyProgress() };
    const sending = startSending(
      () => state.progress,
      () => async (progress) => {
        sent.push(progress.bookmarks);
        return online;
      },
    );
    state.progress = toggleBookmark(state.progress, 4, new Date());
    sending.flush();
    expect(sent).toEqual([[4]]);
    await vi.advanceTimersByTimeAsync(SAVE_EVERY_MS);
    // The first failed: the same record again, 15 s later; once through, not again.
    expect(sent).toEqual([[4], [4]]);
    online = true;
    await vi.advanceTimersByTimeAsync(SAVE_EVERY_MS);
    await vi.advanceTimersByTimeAsync(SAVE_EVERY_MS);
    expect(sent).toEqual([[4], [4], [4]]);
    sending.stop();
  });
});
