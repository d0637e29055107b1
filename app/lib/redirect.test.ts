import { describe, expect, it } from "vitest";
import { refererPath, safeRedirectPath, withRedirect } from "./redirect";

describe("safeRedirectPath", () => {
  it.each([
    ["/account", "/account"],
    ["/chapter/4?x=1#p3", "/chapter/4?x=1#p3"],
    ["/a/../toc", "/toc"],
    ["/%5cevil.example", "/%5cevil.example"],
    ["/%2f%2fevil.example", "/%2f%2fevil.example"],
    ["/\u2215\u2215evil.example", "/%E2%88%95%E2%88%95evil.example"],
    ["/\uff0f\uff0fevil.example", "/%EF%BC%8F%EF%BC%8Fevil.example"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "https:evil.example",
    "https:/evil.example",
    "/..//evil.example",
    "/.//evil.example/x",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/../\\evil.example",
    "/./\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r//evil.example",
    "//\tevil.example",
    "/\u0000//evil.example",
    "%2f%2fevil.example",
    "\t//evil.example",
    " //evil.example",
    "JavaScript:alert(1)",
    "data:text/html,x",
    "/".padEnd(3000, "a"),
    "javascript:alert(1)",
    "account",
    "",
    null,
    undefined,
  ])("refuses %s", (input) => {
    expect(safeRedirectPath(input, "/fallback")).toBe("/fallback");
  });
});

describe("refererPath", () => {
  const from = (referer?: string) =>
    refererPath(new Request("http://localhost/preferences", { headers: referer ? { referer } : {} }));

  it("gives the path and query of the page a form came from", () => {
    expect(from("http://localhost/chapter/4?x=1#p3")).toBe("/chapter/4?x=1");
  });

  it("gives nothing without a usable Referer", () => {
    expect(from()).toBeUndefined();
    expect(from("not a url")).toBeUndefined();
  });

  it("keeps only the path of another site's address, which safeRedirectPath then accepts as this site's", () => {
    expect(safeRedirectPath(from("https://evil.example//evil.example/x"))).toBe("/");
    expect(safeRedirectPath(from("https://evil.example/toc"))).toBe("/toc");
  });
});

describe("withRedirect", () => {
  it("carries the target on, encoded, unless it is the page's default", () => {
    expect(withRedirect("/register", "/checkout")).toBe("/register?redirectTo=%2Fcheckout");
    expect(withRedirect("/login", "/coins?payment=3")).toBe("/login?redirectTo=%2Fcoins%3Fpayment%3D3");
    expect(withRedirect("/login", "/welcome", "/welcome")).toBe("/login");
  });
});
