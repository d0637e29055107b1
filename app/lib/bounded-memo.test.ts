import { describe, expect, it } from "vitest";
import { boundedMemo } from "./bounded-memo";

describe("boundedMemo", () => {
  it("makes a key's value once, and forgets the oldest past its limit", () => {
    const memo = boundedMemo<number>(2);
    let made = 0;
    const make = () => ++made;
    expect(memo("a", make)).toBe(1);
    expect(memo("a", make)).toBe(1);
    expect(memo("b", make)).toBe(2);
    expect(memo("c", make)).toBe(3);
    // "a" was the oldest: made again; "c" is still kept.
    expect(memo("a", make)).toBe(4);
    expect(memo("c", make)).toBe(3);
  });

  it("keeps a falsy value as a value", () => {
    const memo = boundedMemo<string>(4);
    let made = 0;
    const make = () => {
      made += 1;
      return "";
    };
    memo("empty", make);
    memo("empty", make);
    expect(made).toBe(1);
  });

  it("forgets a promise that rejects, so the next ask tries again", async () => {
    const memo = boundedMemo<Promise<string>>(4);
    const failed = memo("k", () => Promise.reject(new Error("down")));
    await expect(failed).rejects.toThrow("down");
    await expect(memo("k", () => Promise.resolve("up"))).resolves.toBe("up");
    await expect(memo("k", () => Promise.resolve("again"))).resolves.toBe("up");
  });

  it("holds no more than its limit over many keys", () => {
    const memo = boundedMemo<number>(8);
    for (let i = 0; i < 1000; i += 1) memo(String(i), () => i);
    let made = 0;
    for (let i = 992; i < 1000; i += 1) memo(String(i), () => ++made);
    expect(made).toBe(0);
    memo("0", () => ++made);
    expect(made).toBe(1);
  });
});
