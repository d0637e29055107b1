import { XMLParser, XMLValidator } from "fast-xml-parser";
import { unzipSync } from "fflate";

/** An EPUB's files by path, as a reading system unpacks it. */
export type UnpackedEpub = { files: Record<string, Uint8Array>; text: (path: string) => string };

export function unpackEpub(bytes: Uint8Array): UnpackedEpub {
  const files = unzipSync(bytes);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  return {
    files,
    text: (path) => {
      const file = files[path];
      if (!file) throw new Error(`no ${path} in the EPUB`);
      return decoder.decode(file);
    },
  };
}

/** The ZIP's first local header: its name, method (0 stored), extra field length and the data after it. */
export function firstEntry(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nameLength = view.getUint16(26, true);
  const extraLength = view.getUint16(28, true);
  const name = new TextDecoder().decode(bytes.subarray(30, 30 + nameLength));
  const start = 30 + nameLength + extraLength;
  return {
    signature: view.getUint32(0, true),
    method: view.getUint16(8, true),
    name,
    extraLength,
    data: new TextDecoder().decode(bytes.subarray(start, start + 20)),
  };
}

/** A code point XML 1.0 allows, as a character or a reference. */
const xmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

/**
 * Why the text is not well-formed XML, or undefined: the tags, attributes and nesting (fast-xml-parser's
 * validator), and what that validator lets pass: a reference XML does not define (`&nbsp;`), a character or a
 * character reference XML refuses (controls, lone surrogates), and `]]>` in character data.
 */
export function xmlProblem(text: string): string | undefined {
  const result = XMLValidator.validate(text);
  if (result !== true) return `${result.err.code} ${result.err.msg} at line ${result.err.line}`;
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)[^;\s]{0,12};?/.exec(text);
  if (entity) return `an undefined reference or a bare ampersand: ${entity[0]}`;
  for (const match of text.matchAll(/&#(x[0-9a-fA-F]+|\d+);/g)) {
    const value = match[1] as string;
    const code = value.startsWith("x") ? Number.parseInt(value.slice(1), 16) : Number(value);
    if (!xmlChar(code)) return `a reference to a character XML refuses: ${match[0]}`;
  }
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (!xmlChar(code)) return `a character XML refuses: U+${code.toString(16)}`;
  }
  if (/\]\]>/.test(text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ""))) return "]]> in character data";
  return undefined;
}

export const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: () => false });

/** The words of an XHTML document's text, tags taken out and references read, spaces collapsed. */
export function wordsOf(xhtml: string): string {
  return xhtml
    .replace(/<[^>]*>/g, " ")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}
