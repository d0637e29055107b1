import type { Element, ElementContent, Root } from "hast";
import rehypeParse from "rehype-parse";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { xmlSafe } from "./xml";

const parse = unified().use(rehypeParse, { fragment: true }).freeze();
// Void elements closed (`<br />`), references numeric (XML knows no `&nbsp;`), the rest as HTML writes it.
const stringify = unified().use(rehypeStringify, { closeSelfClosing: true }).freeze();

/** The addresses of the images a chapter's HTML shows (a `<picture>` by its `<img>`: PNG or JPEG). */
export function imagesIn(html: string): string[] {
  const urls = new Set<string>();
  visit(parse.parse(html), "element", (node: Element) => {
    if (node.tagName === "img" && typeof node.properties.src === "string" && node.properties.src)
      urls.add(node.properties.src);
  });
  return [...urls];
}

export type XhtmlLinks = {
  /** The packed image's path inside the book, or undefined when it is not in it (its description stays). */
  image: (url: string) => string | undefined;
  /** Where a link of the text leads from inside the book (a chapter in it, else the site's absolute address). */
  link: (href: string) => string;
};

const textNode = (value: string): ElementContent => ({ type: "text", value });

/**
 * The sanitised HTML of the chapter page (features/content/markdown.server.ts) as well-formed XHTML for the
 * book: pictures become their packed `<img>` (or their description when not packed), links lead into the book
 * or to the site, task-list boxes become ☑/☐, attributes without a value go (XML has none), and characters
 * XML refuses go. The sanitiser's output holds no script, style, comment or foreign element.
 */
export function toXhtml(html: string, links: XhtmlLinks): string {
  const tree = parse.parse(html) as Root;
  visit(tree, (node, index, parent) => {
    if (node.type === "text") {
      node.value = xmlSafe(node.value);
      return;
    }
    if (node.type === "comment" || node.type === "doctype") {
      if (parent && index !== undefined) parent.children.splice(index, 1);
      return index;
    }
    if (node.type !== "element" || !parent || index === undefined) return;
    const element = node as Element;
    if (element.tagName === "picture") {
      const img = element.children.find(
        (child): child is Element => child.type === "element" && child.tagName === "img",
      );
      parent.children.splice(index, 1, ...(img ? [img] : []));
      return index;
    }
    if (element.tagName === "source") {
      parent.children.splice(index, 1);
      return index;
    }
    if (element.tagName === "input") {
      parent.children[index] = textNode(element.properties.checked ? "☑ " : "☐ ");
      return;
    }
    if (element.tagName === "img") {
      const { src, alt, width, height } = element.properties;
      const href = typeof src === "string" ? links.image(src) : undefined;
      if (!href) {
        parent.children[index] = textNode(typeof alt === "string" ? xmlSafe(alt) : "");
        return;
      }
      element.properties = { src: href, alt: typeof alt === "string" ? alt : "" };
      if (typeof width === "number" || typeof width === "string") element.properties.width = width;
      if (typeof height === "number" || typeof height === "string") element.properties.height = height;
    }
    if (element.tagName === "a" && typeof element.properties.href === "string")
      element.properties.href = links.link(element.properties.href);
    for (const [name, value] of Object.entries(element.properties)) {
      if (value === true) delete element.properties[name];
      else if (typeof value === "string") element.properties[name] = xmlSafe(value);
      else if (Array.isArray(value))
        element.properties[name] = value.map((part) => (typeof part === "string" ? xmlSafe(part) : part));
    }
  });
  // `]]>` may not stand in XML character data; in an attribute value `&gt;` reads the same.
  return String(stringify.stringify(tree)).replaceAll("]]>", "]]&gt;");
}
