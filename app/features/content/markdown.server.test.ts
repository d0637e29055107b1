import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { type DefaultTreeAdapterTypes, parseFragment } from "parse5";
import { describe, expect, it } from "vitest";
import {
  CHAPTER_RENDERER,
  chapterText,
  renderChapter,
  renderCommentMarkdown,
  renderMarkdown,
  sanitizeHtml,
} from "./markdown.server";

/** Every element of an HTML fragment, parsed as a browser would. */
function elements(html: string): DefaultTreeAdapterTypes.Element[] {
  const out: DefaultTreeAdapterTypes.Element[] = [];
  const walk = (node: DefaultTreeAdapterTypes.ParentNode) => {
    for (const child of node.childNodes) {
      if ("tagName" in child) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(parseFragment(html));
  return out;
}

/** What must never survive sanitising: script-capable elements, event handlers, script URLs. */
function dangers(html: string): string[] {
  return elements(html).flatMap((element) => [
    ...(["script", "iframe", "style", "object", "embed", "form", "frame"].includes(element.tagName)
      ? [element.tagName]
      : []),
    ...element.attrs
      .filter(
        (attr) =>
          attr.name.startsWith("on") ||
          attr.name === "style" ||
          ((attr.name === "href" || attr.name === "src") &&
            // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers skip control characters in a scheme
            /^\s*(javascript|vbscript|data):/i.test(attr.value.replace(/[\u0000-\u0020]/g, ""))),
      )
      .map((attr) => `${element.tagName}[${attr.name}=${attr.value}]`),
  ]);
}

describe("renderMarkdown", () => {
  it("renders GFM and keeps safe raw HTML", () => {
    expect(renderMarkdown("Hello *night*\n\n<em>raw</em> ~~gone~~")).toBe(
      "<p>Hello <em>night</em></p>\n<p><em>raw</em> <del>gone</del></p>",
    );
  });

  it("keeps allowed link schemes and relative links, empties the rest", () => {
    const html = renderMarkdown(
      "[a](https://x.example/) [b](/toc) [c](mailto:a@b.example) [d](irc://irc.example/c) [e](javascript:alert(1)) [f](data:text/html,x)",
    );
    expect(html).toContain('<a href="https://x.example/" rel="noopener noreferrer">a</a>');
    expect(html).toContain('<a href="/toc">b</a>');
    expect(html).toContain('<a href="mailto:a@b.example">c</a>');
    expect(html).toContain('<a href="irc://irc.example/c">d</a>');
    expect(html).toContain('<a href="">e</a>');
    expect(html).toContain('<a href="">f</a>');
  });

  it("strips scripts, event handlers, frames, forms and styles", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src="x.png" onerror="alert(1)"><iframe src="https://x.example"></iframe><form action="/x"><input name="a"></form><p style="color:red" onclick="x()">p</p>',
    );
    expect(dangers(html)).toEqual([]);
    expect(html).toContain('<img src="x.png">');
  });

  it("prefixes ids so user content cannot clobber the page's", () => {
    expect(renderMarkdown('<a id="main" name="x">a</a>')).toContain('id="user-content-main"');
  });

  it("never throws, is idempotent and never emits script (fuzzed)", () => {
    const fragments = fc.constantFrom(
      "<script>",
      "</script>",
      "<img src=x onerror=alert(1)>",
      "[x](javascript:alert(1))",
      "<a href='jav&#x09;ascript:x'>",
      "<svg onload=alert(1)>",
      "<iframe>",
      "**",
      "|a|b|\n|-|-|\n|1|2|",
      "[^1]\n\n[^1]: note",
      "<style>*{}</style>",
      "\n\n",
      "<",
      ">",
      '"',
    );
    const input = fc
      .array(fc.oneof(fragments, fc.string()), { maxLength: 12 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(input, (markdown) => {
        const html = renderMarkdown(markdown);
        expect(dangers(html)).toEqual([]);
        expect(sanitizeHtml(html)).toBe(html);
      }),
      { numRuns: 300 },
    );
  });
});

describe("renderCommentMarkdown (a reader's comment)", () => {
  it("keeps emphasis, quotes, spoilers and links marked as the reader's", () => {
    expect(renderCommentMarkdown("*a* **b** ||end|| [x](https://e.example)\n\n> said")).toBe(
      '<p><em>a</em> <strong>b</strong> <span class="spoiler" tabindex="0">end</span> <a href="https://e.example" rel="nofollow ugc noopener">x</a></p>\n<blockquote>\n<p>said</p>\n</blockquote>',
    );
  });

  it("shows raw HTML as text, drops images and headings' markup, empties javascript: links", () => {
    expect(renderCommentMarkdown("<b onclick=x>hi</b>")).toBe("<p>&#x3C;b onclick=x>hi&#x3C;/b></p>");
    expect(renderCommentMarkdown("# Big\n\n![i](https://e.example/i.png)")).toBe("<p>Big</p>\n<p></p>");
    expect(renderCommentMarkdown("[x](javascript:alert(1))")).toBe("<p><a>x</a></p>");
  });

  it("never throws, never emits an element outside the subset or an active attribute (fuzzed)", () => {
    const allowed = new Set(["p", "br", "em", "strong", "del", "a", "blockquote", "code", "span"]);
    const fragments = fc.constantFrom(
      "<script>",
      "</script>",
      "<img src=x onerror=alert(1)>",
      "[x](javascript:alert(1))",
      "[y](  JaVa\tScRiPt:alert(1))",
      "<svg onload=alert(1)>",
      "||",
      "**",
      "> ",
      "`",
      "www.example.com",
      "\n\n",
      "<",
      '"',
    );
    const input = fc
      .array(fc.oneof(fragments, fc.string()), { maxLength: 12 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(input, (markdown) => {
        const html = renderCommentMarkdown(markdown);
        expect(dangers(html)).toEqual([]);
        for (const element of elements(html)) {
          expect(allowed.has(element.tagName)).toBe(true);
          for (const attr of element.attrs) expect(["href", "rel", "class", "tabindex"]).toContain(attr.name);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("the chapter fixture (raw HTML, GFM table, footnote, every link scheme)", () => {
  const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

  it("renders exactly the reviewed HTML", () => {
    expect(`${renderMarkdown(fixture("chapter.md"))}\n`).toBe(fixture("chapter.html"));
  });

  it("keeps relative, http(s), irc(s), mailto and xmpp links and empties the rest", () => {
    const html = fixture("chapter.html");
    for (const kept of [
      'href="/toc"',
      'href="https://example.com/a"',
      'href="mailto:ilse@example.com"',
      'href="irc://irc.example.com/c"',
      'href="ircs://irc.example.com/c"',
      'href="xmpp:ilse@example.com"',
      'src="/media/art/chapter-1.svg"',
    ]) {
      expect(html).toContain(kept);
    }
    expect(html.match(/href=""/g)).toHaveLength(4);
    expect(html).toContain('<img src="" alt="inline">');
    expect(dangers(html)).toEqual([]);
  });

  it("numbers the chapter's top-level blocks for places and bookmarks, each an anchor (#p-N)", async () => {
    const html = await renderChapter(1, new Date(0), () => ({ markdown: "One.\n\nTwo.\n\n* * *\n\nThree." }));
    expect(html).toBe('<p id="p-0">One.</p>\n<p id="p-1">Two.</p>\n<hr id="p-2">\n<p id="p-3">Three.</p>');
  });

  it("uses the rendering stored with the chapter as it is, and stores what it would render", async () => {
    const stored = chapterText("One.\n\nTwo.");
    expect(stored).toEqual({
      bodyMd: "One.\n\nTwo.",
      bodyHtml: '<p id="p-0">One.</p>\n<p id="p-1">Two.</p>',
      bodyHtmlRenderer: CHAPTER_RENDERER,
    });
    expect(await renderChapter(3, new Date(0), () => ({ html: "<p>As stored.</p>" }))).toBe(
      "<p>As stored.</p>",
    );
  });

  it("keeps an author's id on a block, prefixed, and never lets one take a paragraph's anchor", async () => {
    const html = await renderChapter(2, new Date(0), () => ({ markdown: '<p id="p-1">Mine.</p>\n\nTwo.' }));
    expect(html).toBe('<p id="user-content-p-1" data-p="0">Mine.</p>\n<p id="p-1">Two.</p>');
  });
});

describe("uploaded images in a chapter", () => {
  const hash = "0123456789abcdef0123456789abcdef";
  const picture = {
    src: `/media/uploads/${hash}/1200.png`,
    width: 1200,
    height: 600,
    sources: [{ type: "image/webp", srcSet: `/media/uploads/${hash}/480.webp 480w` }],
    fallbackSrcSet: `/media/uploads/${hash}/480.png 480w, /media/uploads/${hash}/1200.png 1200w`,
  };

  it("become pictures with their size and widths; other images stay as they are", async () => {
    const asked: string[][] = [];
    const html = await renderChapter(
      9001,
      new Date(0),
      () => ({ markdown: `![The tower](/media/uploads/${hash}/1200.png)\n\n![Old](/media/art/old.png)` }),
      async (hashes) => {
        asked.push(hashes);
        return new Map([[hash, picture]]);
      },
    );
    expect(asked).toEqual([[hash]]);
    const [pictureElement] = elements(html).filter((element) => element.tagName === "picture");
    const children = (pictureElement?.childNodes ?? []).filter(
      (node): node is DefaultTreeAdapterTypes.Element => "tagName" in node,
    );
    expect(children.map((child) => child.tagName)).toEqual(["source", "img"]);
    const attributes = (element?: DefaultTreeAdapterTypes.Element) =>
      Object.fromEntries((element?.attrs ?? []).map((attribute) => [attribute.name, attribute.value]));
    expect(attributes(children[0])).toMatchObject({ type: "image/webp", srcset: picture.sources[0]?.srcSet });
    expect(attributes(children[1])).toMatchObject({
      src: picture.src,
      alt: "The tower",
      width: "1200",
      height: "600",
      srcset: picture.fallbackSrcSet,
      loading: "lazy",
    });
    const plain = elements(html).filter((element) => attributes(element).src === "/media/art/old.png");
    expect(plain).toHaveLength(1);
    expect(attributes(plain[0])).not.toHaveProperty("width");
  });

  it("asks for no records when the text names no upload", async () => {
    let asked = false;
    await renderChapter(
      9002,
      new Date(0),
      () => ({ markdown: "![Old](/media/art/old.png)" }),
      async () => {
        asked = true;
        return new Map();
      },
    );
    expect(asked).toBe(false);
  });
});
