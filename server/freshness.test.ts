import { afterEach, describe, expect, it, vi } from "vitest";
import { FreshnessFollower } from "./freshness";

afterEach(() => {
  vi.useRealTimers();
});

describe("the follower of both freshness streams", () => {
  it("reads the reader events every tick and the content revision every fourth, each waiting for its own last read", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const reads = { sessionEvents: 0, contentRevision: 0 };
    let slow: (() => void) | undefined;
    let holding = false;
    const follower = new FreshnessFollower(
      {
        sessionEvents: async () => {
          reads.sessionEvents++;
        },
        contentRevision: () => {
          reads.contentRevision++;
          return holding
            ? new Promise<void>((resolve) => {
                slow = resolve;
              })
            : Promise.resolve();
        },
      },
      250,
      4,
    );
    await follower.start();
    expect(reads).toEqual({ sessionEvents: 1, contentRevision: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toEqual({ sessionEvents: 5, contentRevision: 2 });
    // A content read that does not end: the reader events go on, the content waits for it.
    holding = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(reads).toEqual({ sessionEvents: 13, contentRevision: 3 });
    holding = false;
    slow?.();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toEqual({ sessionEvents: 17, contentRevision: 4 });
    follower.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toEqual({ sessionEvents: 17, contentRevision: 4 });
  });
});
