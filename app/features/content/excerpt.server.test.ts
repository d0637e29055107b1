import { describe, expect, it } from "vitest";
import { excerptOf, excerptOfHtml } from "./excerpt.server";
import { chapterTextHtml } from "./markdown.server";

/** Markdown as the author writes it, and the excerpt a reader of the e-mail or the feed reads. */
const cases: [what: string, markdown: string, excerpt: string][] = [
  ["emphasis before a comma", "It was *eleven*, then twelve.", "It was eleven, then twelve."],
  ["strong and struck words", "The **bell** rang ~~twice~~ once!", "The bell rang twice once!"],
  [
    "a link before a full stop",
    "She followed [a bad link](https://example.com/x).",
    "She followed a bad link.",
  ],
  ["inline code in a word", "The `vel`vet rope.", "The velvet rope."],
  ["a heading is a title, not the first sentence", "# Chapter Eleven\n\nIt was late.", "It was late."],
  ["a heading between paragraphs", "One.\n\n## Part two\n\nTwo.", "One. Two."],
  ["list items are apart", "- bread\n- *salt*\n- wine\n\nThen dusk.", "bread salt wine Then dusk."],
  ["a numbered list", "1. first\n2. second", "first second"],
  ["a quote and what follows", "> Blood *binds*.\n\nShe said.", "Blood binds. She said."],
  ["a hard line break", "A line  \nbreak.", "A line break."],
  ["paragraphs", "First.\n\nSecond.", "First. Second."],
  ["a picture says nothing", "Look ![a moon](https://example.com/m.png) up.", "Look up."],
  ["raw HTML emphasis", "It was <i>late</i>, very.", "It was late, very."],
  ["characters escaped in HTML", "Caf&#xe9; &#233; &lt;b&gt; &bogus; & more", "Café é <b> &bogus; & more"],
  ["a script is not text", "The bell <script>alert(1)</script>rang.", "The bell rang."],
  ["a footnote reference is not a word", "Dusk[^1] fell.\n\n[^1]: A note.", "Dusk fell."],
];

describe("excerpts", () => {
  it.each(cases)("%s", (_what, markdown, excerpt) => {
    expect(excerptOf(markdown)).toBe(excerpt);
    // The same from the reader's rendering (numbered blocks), as the private feed takes it.
    expect(excerptOfHtml(chapterTextHtml(markdown))).toBe(excerpt);
  });

  it("cuts at a word under the limit, with an ellipsis", () => {
    expect(excerptOf(`${"word ".repeat(100)}end`, 30)).toBe("word word word word word word…");
    expect(excerptOf("*Short*, whole.", 30)).toBe("Short, whole.");
  });
});
