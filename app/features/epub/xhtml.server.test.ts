import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chapterTextHtml, withUploadedPictures } from "~/features/content/markdown.server";
import { xmlProblem } from "../../../tests/support/epub";
import { xhtmlDocument } from "./documents.server";
import { imagesIn, toXhtml } from "./xhtml.server";

const links = {
  image: (url: string) => (url.startsWith("/media/") ? `images/${url.length}.png` : undefined),
  link: (href: string) => (href.startsWith("/") ? `https://example.com${href}` : href),
};

const asDocument = (html: string) =>
  xhtmlDocument({ title: "t", language: "en", body: toXhtml(chapterTextHtml(html), links) });

describe("a chapter's HTML as XHTML", () => {
  it("is checked by a check that refuses what XML refuses", () => {
    for (const bad of [
      "<a>&nbsp;</a>",
      "<a>\u0001</a>",
      "<a>&#x1;</a>",
      "<a>]]></a>",
      "<a><b></a>",
      "<a>\ud800</a>",
    ])
      expect(xmlProblem(bad), bad).toBeDefined();
    expect(xmlProblem('<a b="&amp;">&#x26; ☑</a>')).toBeUndefined();
  });

  it("is well-formed XML whatever the Markdown (raw HTML, entities, controls, CDATA ends)", () => {
    const pieces = fc.constantFrom(
      "<br>",
      "<img src='/media/art/x.svg' alt='a & b'>",
      "<img src='https://elsewhere.example/x.png' alt='far'>",
      "&nbsp;",
      "&copy;",
      "]]>",
      "- [x] done\n- [ ] not\n",
      "<details open><summary>s</summary>x</details>",
      "<table><tr><td colspan=2>c</td></tr></table>",
      "<p hidden>h</p>",
      "\u0001\u0008\u000b\ufffe",
      "\ud800",
      "<svg><a><a>x</a></a></svg>",
      "<!-- c -->",
      "<a href='/chapter/2#p-1'>2</a>",
      "*em* **strong** `code`\n\n",
      "> quote\n\n",
      "| a | b |\n|---|---|\n| 1 | 2 |\n",
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(pieces, fc.string(), fc.string({ unit: "binary" })), { maxLength: 12 }),
        (parts) => {
          const document = asDocument(parts.join(""));
          expect(xmlProblem(document), document).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it("packs the site's images, gives an outside one its description, and links to the site", () => {
    const html = withUploadedPictures(
      chapterTextHtml(
        "![The gate](/media/art/gate.svg)\n\n![Far](https://elsewhere.example/x.png)\n\n[Two](/chapter/2) [Wiki](/wiki)\n\n- [x] done",
      ),
      new Map(),
    );
    expect(imagesIn(html)).toEqual(["/media/art/gate.svg", "https://elsewhere.example/x.png"]);
    const xhtml = toXhtml(html, links);
    expect(xhtml).toContain('<img src="images/19.png" alt="The gate" />');
    expect(xhtml).not.toContain("elsewhere.example");
    expect(xhtml).toContain("Far");
    expect(xhtml).toContain('href="https://example.com/chapter/2"');
    expect(xhtml).toMatch(/☑\s+done/);
    expect(xhtml).not.toContain("<input");
  });
});
