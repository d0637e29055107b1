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

/** Whether the text is well-formed XML (the validator's error otherwise). */
export function xmlProblem(text: string): string | undefined {
  const result = XMLValidator.validate(text);
  return result === true ? undefined : `${result.err.code} ${result.err.msg} at line ${result.err.line}`;
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
