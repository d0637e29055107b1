import { describe, expect, it } from "vitest";
import { sideBySideHtml } from "./side-by-side.server";

const original =
  '<p id="p-0">One.</p>\n<p id="p-1">Two, <a href="#user-content-x">see</a>.</p>\n<h2 id="user-content-x" data-p="2">Three</h2>';
const translated = '<p id="p-0">Uno.</p>\n<p id="p-1">Dos y tres.</p>';

describe("a translated chapter side by side with its original (ADR 97)", () => {
  it("puts each translated block after its originals, in rows, with their languages", () => {
    const html = sideBySideHtml(original, translated, "es", [1, 2]);
    expect(html).toBe(
      '<div class="pair"><div class="pair-original" lang="en"><p>One.</p></div>' +
        '<div class="pair-translation" lang="es"><p id="p-0">Uno.</p></div></div>' +
        '<div class="pair"><div class="pair-original" lang="en"><p>Two, <a href="#user-content-x">see</a>.</p><h2>Three</h2></div>' +
        '<div class="pair-translation" lang="es"><p id="p-1">Dos y tres.</p></div></div>',
    );
  });

  it("keeps the translation's ids alone on the page, in order", () => {
    const html = sideBySideHtml(original, translated, "ja", undefined);
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toEqual(["p-0", "p-1"]);
    expect(html).not.toContain("data-p");
  });
});
