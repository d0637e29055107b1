import { escapeXml } from "./xml";

/**
 * The EPUB 3 documents around the chapters (ADR 89): the container, the package document (no NCX: the
 * navigation document is the table of contents) and the XHTML pages. Every text put in is escaped here.
 */

export const CONTAINER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

export const STYLESHEET = `body { margin: 0 5%; line-height: 1.5; font-family: serif; }
h1, h2 { text-align: center; line-height: 1.2; }
.part { margin-top: 30%; text-align: center; }
.part p { text-align: left; }
.locked { margin-top: 30%; text-align: center; }
.colophon { margin-top: 20%; text-align: center; }
figure { margin: 1em 0; text-align: center; }
figure img, p img { max-width: 100%; height: auto; }
figcaption { font-style: italic; font-size: 0.9em; }
.cover { margin: 0; padding: 0; text-align: center; }
.cover img { max-width: 100%; max-height: 100vh; }
`;

/** An XHTML content document: `body` is XHTML already (escaped by whoever made it). */
export function xhtmlDocument({
  title,
  language,
  body,
  bodyClass,
}: {
  title: string;
  language: string;
  body: string;
  bodyClass?: string;
}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${escapeXml(language)}" xml:lang="${escapeXml(language)}">
<head>
<meta charset="UTF-8"/>
<title>${escapeXml(title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body${bodyClass ? ` class="${bodyClass}"` : ""}>
${body}
</body>
</html>
`;
}

export type NavEntry = { title: string; href: string; children?: NavEntry[] };

const navList = (entries: NavEntry[]): string =>
  `<ol>${entries
    .map(
      (entry) =>
        `<li><a href="${escapeXml(entry.href)}">${escapeXml(entry.title)}</a>${entry.children?.length ? navList(entry.children) : ""}</li>`,
    )
    .join("\n")}</ol>`;

/** The navigation document: the table of contents (volumes holding their chapters) and the landmarks. */
export function navDocument({
  title,
  language,
  heading,
  toc,
  landmarks,
}: {
  title: string;
  language: string;
  heading: string;
  toc: NavEntry[];
  landmarks: { type: "cover" | "bodymatter" | "toc"; title: string; href: string }[];
}): string {
  const marks = landmarks
    .map(
      (mark) =>
        `<li><a epub:type="${mark.type}" href="${escapeXml(mark.href)}">${escapeXml(mark.title)}</a></li>`,
    )
    .join("\n");
  return xhtmlDocument({
    title,
    language,
    body: `<nav epub:type="toc" id="toc"><h1>${escapeXml(heading)}</h1>
${navList(toc)}</nav>
<nav epub:type="landmarks" id="landmarks" hidden="hidden"><ol>${marks}</ol></nav>`,
  });
}

export type ManifestItem = { id: string; href: string; mediaType: string; properties?: string };

/** The package document: metadata, every file of the book in the manifest, and the reading order. */
export function packageDocument({
  identifier,
  title,
  language,
  author,
  publisher,
  source,
  rights,
  modified,
  manifest,
  spine,
}: {
  identifier: string;
  title: string;
  language: string;
  author: string;
  publisher: string;
  source: string;
  rights: string;
  modified: Date;
  manifest: ManifestItem[];
  spine: string[];
}): string {
  // dcterms:modified is CCYY-MM-DDThh:mm:ssZ, without fractions of a second.
  const stamp = `${modified.toISOString().slice(0, 19)}Z`;
  const items = manifest
    .map(
      (item) =>
        `<item id="${escapeXml(item.id)}" href="${escapeXml(item.href)}" media-type="${escapeXml(item.mediaType)}"${item.properties ? ` properties="${item.properties}"` : ""}/>`,
    )
    .join("\n    ");
  const cover = manifest.find((item) => item.properties === "cover-image");
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${escapeXml(language)}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">${escapeXml(identifier)}</dc:identifier>
    <dc:title>${escapeXml(title)}</dc:title>
    <dc:creator>${escapeXml(author)}</dc:creator>
    <dc:language>${escapeXml(language)}</dc:language>
    <dc:publisher>${escapeXml(publisher)}</dc:publisher>
    <dc:source>${escapeXml(source)}</dc:source>
    <dc:rights>${escapeXml(rights)}</dc:rights>
    <meta property="dcterms:modified">${stamp}</meta>${cover ? `\n    <meta name="cover" content="${escapeXml(cover.id)}"/>` : ""}
  </metadata>
  <manifest>
    ${items}
  </manifest>
  <spine>
    ${spine.map((id) => `<itemref idref="${escapeXml(id)}"/>`).join("\n    ")}
  </spine>
</package>
`;
}
