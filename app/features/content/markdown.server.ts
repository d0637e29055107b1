import { createHash } from "node:crypto";
import type { Element, Root } from "hast";
import type { Root as MdastRoot } from "mdast";
import rehypeParse from "rehype-parse";
import rehypeRaw from "rehype-raw";
import rehypeSanitize, { defaultSchema, type Options as Schema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { PICTURE_SIZES, type Picture, uploadHashOf } from "~/features/uploads/picture";
import { boundedMemo } from "~/lib/bounded-memo";

const linkSchemes = ["http", "https", "irc", "ircs", "mailto", "xmpp"];
const imageSchemes = ["http", "https"];
const idPrefix = "user-content-";

/** True for relative addresses and for absolute ones whose scheme is in the list. */
export function isAllowedUrl(value: string, schemes: string[]): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const compact = value.replace(/[\u0000-\u0020\u007f]/g, "");
  const colon = compact.indexOf(":");
  if (colon === -1) return true;
  const beforeColon = compact.slice(0, colon);
  if (/[/?#]/.test(beforeColon)) return true;
  return schemes.includes(beforeColon.toLowerCase());
}

/** Addresses with a disallowed scheme become empty (rather than vanishing), as the spec says. */
function emptyDisallowedUrls() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      const props = node.properties;
      if (node.tagName === "a" && typeof props.href === "string" && !isAllowedUrl(props.href, linkSchemes)) {
        props.href = "";
      }
      if (node.tagName === "img" && typeof props.src === "string" && !isAllowedUrl(props.src, imageSchemes)) {
        props.src = "";
      }
    });
  };
}

/** Runs after sanitising: only adjusts attributes of elements the sanitiser kept. */
function finishLinks() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      if (node.tagName !== "a" || typeof node.properties.href !== "string") return;
      const href = node.properties.href;
      // Ids were prefixed by the sanitiser; in-page links follow them.
      if (href.startsWith("#") && href.length > 1 && !href.startsWith(`#${idPrefix}`)) {
        node.properties.href = `#${idPrefix}${href.slice(1)}`;
      }
      if (/^https?:/i.test(href)) node.properties.rel = ["noopener", "noreferrer"];
    });
  };
}

const sanitizeSchema = {
  ...defaultSchema,
  // Checkboxes only as GFM task-list items; no other form controls.
  ancestors: { ...defaultSchema.ancestors, input: ["li"] },
  clobberPrefix: idPrefix,
  protocols: { ...defaultSchema.protocols, href: linkSchemes, src: imageSchemes },
};

/** Ids the sanitiser prefixed once are not prefixed again, so sanitising twice changes nothing. */
function unprefixIds() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      for (const name of ["id", "name", "ariaDescribedBy", "ariaLabelledBy"]) {
        const value = node.properties[name];
        if (typeof value === "string" && value.startsWith(idPrefix))
          node.properties[name] = value.slice(idPrefix.length);
        if (Array.isArray(value)) {
          node.properties[name] = value.map((v) =>
            typeof v === "string" && v.startsWith(idPrefix) ? v.slice(idPrefix.length) : v,
          );
        }
      }
    });
  };
}

/** Markdown to HTML, raw HTML included: unsafe until `sanitizeHtml` has run over it. */
const markdownProcessor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true, clobberPrefix: "" })
  .use(rehypeRaw)
  .use(rehypeStringify)
  .freeze();

/** The sanitiser: parse as a browser would, empty disallowed addresses, keep what `schema` allows, finish. */
function sanitizer(schema: Schema, finish: () => (tree: Root) => void) {
  const processor = unified()
    .use(rehypeParse, { fragment: true })
    .use(unprefixIds)
    .use(emptyDisallowedUrls)
    .use(rehypeSanitize, schema)
    .use(finish)
    .use(rehypeStringify)
    .freeze();
  return (html: string): string => {
    // Removing a foreign element (an <svg>) can leave children whose nesting a browser's parser would
    // change, such as an <a> in an <a>; another pass re-parses them. It settles in a pass or two.
    let current = html;
    for (let pass = 0; pass < 5; pass++) {
      const next = String(processor.processSync(current));
      if (next === current) break;
      current = next;
    }
    return current;
  };
}

/**
 * HTML in, safe HTML out. It parses as a browser would (so nesting the parser would undo is undone first),
 * then sanitises; its output is a fixed point of it.
 */
export const sanitizeHtml = sanitizer(sanitizeSchema, finishLinks);

/**
 * What a reader's comment may hold (ADR 47): emphasis, links, quotes, inline code, line breaks and
 * spoilers (`||hidden||`, a `span.spoiler`); everything else is unwrapped to its text or dropped.
 */
const commentSchema: Schema = {
  ...sanitizeSchema,
  tagNames: ["p", "br", "em", "strong", "del", "a", "blockquote", "code", "span"],
  attributes: { a: ["href"], span: [["className", "spoiler"]] },
  ancestors: {},
  required: {},
  protocols: { href: ["http", "https", "mailto"] },
};

/** Comment links are the reader's, not the site's: `nofollow ugc`; a spoiler can be focused to reveal it. */
function finishCommentElements() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      if (node.tagName === "a" && node.properties.href) node.properties.rel = ["nofollow", "ugc", "noopener"];
      // A refused address (javascript:…) was emptied: the text stays, as no link.
      else if (node.tagName === "a") node.properties = {};
      if (node.tagName === "span") node.properties.tabIndex = 0;
    });
  };
}

const sanitizeCommentHtml = sanitizer(commentSchema, finishCommentElements);

/** `||text||` in a text node becomes a spoiler span (before sanitising, which keeps only that class). */
function spoilers() {
  return (tree: Root) => {
    visit(tree, "text", (node, index, parent) => {
      if (!parent || index === undefined || !node.value.includes("||")) return;
      const parts = node.value.split(/\|\|(.+?)\|\|/s);
      if (parts.length === 1) return;
      const children = parts.map((part, at) =>
        at % 2
          ? ({
              type: "element",
              tagName: "span",
              properties: { className: ["spoiler"] },
              children: [{ type: "text", value: part }],
            } as Element)
          : { type: "text" as const, value: part },
      );
      parent.children.splice(index, 1, ...children);
      return index + children.length;
    });
  };
}

/** Raw HTML in a comment is shown as the text it is, never parsed; a heading is a paragraph. */
function plainHtmlAndHeadings() {
  return (tree: MdastRoot) => {
    visit(tree, (node) => {
      if (node.type === "html") Object.assign(node, { type: "text" });
      if (node.type === "heading") Object.assign(node, { type: "paragraph" });
    });
  };
}

/** Markdown without raw HTML (a tag in a comment is its text, never an element), with spoilers. */
const commentProcessor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(plainHtmlAndHeadings)
  .use(remarkRehype)
  .use(spoilers)
  .use(rehypeStringify)
  .freeze();

/** A reader's comment (Markdown) to safe HTML, through the chapters' sanitiser with the comment subset. */
export function renderCommentMarkdown(markdown: string): string {
  return sanitizeCommentHtml(String(commentProcessor.processSync(markdown)));
}

/** Markdown (raw HTML allowed) to sanitised HTML. Never throws for any input string. */
export function renderMarkdown(markdown: string): string {
  // Sanitising is the last step, after everything that produces HTML.
  return sanitizeHtml(String(markdownProcessor.processSync(markdown)));
}

const CACHE_LIMIT = 500;
const rendered = boundedMemo<string>(CACHE_LIMIT);

/** Rendering is pure, so a rendered text is reused until the text changes (keyed by its hash). */
export function renderMarkdownCached(markdown: string): string {
  const cacheKey = createHash("sha256").update(markdown).digest("base64");
  return rendered(cacheKey, () => renderMarkdown(markdown));
}

/**
 * Numbers the top-level blocks: each is an anchor by its place in the text (id="p-0", "p-1", …), so a
 * paragraph's link opens the chapter at it (ADR 46); the reader restores places and bookmarks by the same
 * number, a block's place among the text's blocks (`blockIndex` in features/reader/blocks.ts). An author's ids
 * are prefixed by the sanitiser (`user-content-`), so none can take these; a block that has one keeps it (an
 * in-page link may point there) and says its number in `data-p` instead.
 */
const numberBlocks = unified()
  .use(rehypeParse, { fragment: true })
  .use(() => (tree: Root) => {
    let index = 0;
    for (const node of tree.children) {
      if (node.type === "element") {
        if (node.properties.id === undefined) node.properties.id = `p-${index}`;
        else node.properties.dataP = String(index);
        index++;
      }
    }
  })
  .use(rehypeStringify)
  .freeze();

/**
 * Gives each uploaded image in sanitised HTML its picture (ADR 33): the `<img>` keeps its alt text and gets
 * its size, its widths in its own format and, around it, a `<picture>` with the AVIF and WebP widths. Runs
 * after sanitising, on addresses the sanitiser kept; what it adds comes from the uploads' records.
 */
export function withUploadedPictures(html: string, pictures: Map<string, Picture>): string {
  if (pictures.size === 0) return html;
  return String(
    unified()
      .use(rehypeParse, { fragment: true })
      .use(() => (tree: Root) => {
        visit(tree, "element", (node: Element, index, parent) => {
          if (
            node.tagName !== "img" ||
            typeof node.properties.src !== "string" ||
            !parent ||
            index === undefined
          )
            return;
          const picture = pictures.get(uploadHashOf(node.properties.src) ?? "");
          if (!picture) return;
          Object.assign(node.properties, {
            src: picture.src,
            srcSet: picture.fallbackSrcSet,
            sizes: PICTURE_SIZES,
            width: picture.width,
            height: picture.height,
            loading: "lazy",
            decoding: "async",
          });
          const sources: Element[] = picture.sources.map((source) => ({
            type: "element",
            tagName: "source",
            properties: { type: source.type, srcSet: source.srcSet, sizes: PICTURE_SIZES },
            children: [],
          }));
          parent.children[index] = {
            type: "element",
            tagName: "picture",
            properties: {},
            children: [...sources, node],
          };
          return "skip";
        });
      })
      .use(rehypeStringify)
      .processSync(html),
  );
}

/** The upload hashes that images in some HTML name. */
export function uploadHashesIn(html: string): string[] {
  return [
    ...new Set([...html.matchAll(/\/media\/uploads\/([0-9a-f]{32})\//g)].map((match) => match[1] as string)),
  ];
}

/**
 * The version of what `chapterTextHtml` makes: raised with any change to the Markdown pipeline, the sanitiser's
 * schema or the block numbering, so renderings stored with chapters by an older version are not used (ADR 54).
 */
export const CHAPTER_RENDERER = 2;

/** A chapter's text as readers get it, before its pictures: sanitised HTML with numbered blocks. */
export function chapterTextHtml(markdown: string): string {
  return String(numberBlocks.processSync(renderMarkdown(markdown)));
}

/** A chapter's text columns as its writers store them: the text, its rendering and the renderer's version. */
export function chapterText(markdown: string) {
  return { bodyMd: markdown, bodyHtml: chapterTextHtml(markdown), bodyHtmlRenderer: CHAPTER_RENDERER };
}

/** What a chapter's row gives the reader: its stored rendering when this renderer made it, else its text. */
export type ChapterSource = { html: string } | { markdown: string };

const chapterCache = boundedMemo<Promise<string>>(CACHE_LIMIT);

/**
 * A chapter's sanitised HTML with numbered blocks and its uploaded images as pictures, made once per chapter
 * version; the row (and the pictures' records) are read only when this version is not made yet. The rendering
 * stored with the row is used as it is (ADR 54); only a row without one is rendered here.
 */
export async function renderChapter(
  /** The chapter's id, or its translation's (`<id>:<language>`). */
  id: number | string,
  version: Date,
  loadSource: () => ChapterSource | Promise<ChapterSource>,
  loadPictures: (hashes: string[]) => Promise<Map<string, Picture>> = async () => new Map(),
): Promise<string> {
  const key = `${id}:${version.getTime()}`;
  return chapterCache(key, async () => {
    const source = await loadSource();
    const html = "html" in source ? source.html : chapterTextHtml(source.markdown);
    const hashes = uploadHashesIn(html);
    // An upload never changes (its hash names its bytes), so the picture is kept with the chapter's version.
    return hashes.length ? withUploadedPictures(html, await loadPictures(hashes)) : html;
  });
}
