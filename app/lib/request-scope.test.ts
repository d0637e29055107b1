import { describe, expect, it } from "vitest";
import { newRequestScope, REQUEST_SCOPE_HEADER, requestScope, scopedMemo } from "./request-scope";

describe("request scope", () => {
  it("is the server's mark on a GET or HEAD, never on a write", () => {
    const scope = newRequestScope();
    const headers = { [REQUEST_SCOPE_HEADER]: scope };
    expect(requestScope(new Request("http://x/", { headers }))).toBe(scope);
    expect(requestScope(new Request("http://x/", { method: "HEAD", headers }))).toBe(scope);
    expect(requestScope(new Request("http://x/", { method: "POST", headers }))).toBeUndefined();
    expect(requestScope(new Request("http://x/"))).toBeUndefined();
    expect(newRequestScope()).not.toBe(scope);
  });

  it("memoises by scope and key, and forgets the oldest past its limit", async () => {
    const memo = scopedMemo<number>(2);
    let made = 0;
    const make = () => Promise.resolve(++made);
    const first = memo("1", "a", make);
    expect(memo("1", "a", make)).toBe(first);
    expect(memo("1", "b", make)).not.toBe(first);
    expect(memo("2", "a", make)).not.toBe(first);
    expect(made).toBe(3);
    // Three entries on a limit of two: ("1", "a") went first.
    expect(memo("1", "a", make)).not.toBe(first);
    expect(made).toBe(4);
  });
});
