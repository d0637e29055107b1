import { describe, expect, it } from "vitest";
import { isUnstorableText } from "./unstorable-text";

describe("isUnstorableText", () => {
  it("refuses a NUL and a lone surrogate, and takes any well-formed text", () => {
    for (const text of ["\u0000", "a\u0000b", "\ud800", "x\udfff", "\udc00\ud800"]) {
      expect(isUnstorableText(text), JSON.stringify(text)).toBe(true);
    }
    for (const text of ["", "plain", "日本語", "😀", "\u0001\u007f", "%00", "\\u0000", "\ufffd"]) {
      expect(isUnstorableText(text), JSON.stringify(text)).toBe(false);
    }
  });
});
