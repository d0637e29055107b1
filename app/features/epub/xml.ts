/**
 * Characters XML 1.0 refuses even as references (most C0 controls, lone surrogates, U+FFFE/U+FFFF): taken out
 * of every text the book is made of, so each of its documents parses as XML whatever a chapter holds.
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters taken out.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A text without the characters XML refuses. */
export const xmlSafe = (text: string) => text.replace(NOT_XML, "");

/** Text for XML character data or a double-quoted attribute value. */
export const escapeXml = (text: string) =>
  xmlSafe(text).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c,
  );
