import { createHash } from "node:crypto";
import { chapterHtml } from "~/features/reader/access.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { serverTranslator } from "~/i18n/server";
import { logger, safeError } from "~/lib/logger.server";
import { mediaStore } from "~/lib/media-store.server";
import { contentTypeOf, safeKey } from "~/lib/storage.server";
import type { BookChapter, BookContents } from "./contents.server";
import { coverPng } from "./cover.server";
import {
  CONTAINER_XML,
  type ManifestItem,
  type NavEntry,
  navDocument,
  packageDocument,
  STYLESHEET,
  xhtmlDocument,
} from "./documents.server";
import { EPUB_LIMITS } from "./limits";
import { type EpubFile, zipEpub } from "./package.server";
import { imagesIn, toXhtml } from "./xhtml.server";
import { escapeXml } from "./xml";

/** Image types every EPUB 3 reading system shows (core media types). */
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/svg+xml", "image/webp"]);

type PackedImage = { href: string; mediaType: string; bytes: Uint8Array };

/** The site's own media by address (`/media/<key>`), read from the media store; anything else stays out. */
async function readImages(urls: string[]): Promise<Map<string, PackedImage>> {
  const packed = new Map<string, PackedImage>();
  let total = 0;
  for (const url of urls) {
    const match = /^\/media\/([^?#]+)$/.exec(url);
    if (!match) continue;
    try {
      const key = safeKey(decodeURIComponent(match[1] as string));
      const mediaType = contentTypeOf(key);
      if (!IMAGE_TYPES.has(mediaType)) continue;
      const bytes = await mediaStore().get(key);
      if (!bytes || bytes.length > EPUB_LIMITS.imageBytes || total + bytes.length > EPUB_LIMITS.imagesBytes)
        continue;
      total += bytes.length;
      const name = createHash("sha256").update(key).digest("hex").slice(0, 16);
      const extension = key.slice(key.lastIndexOf(".")).toLowerCase();
      packed.set(url, { href: `images/${name}${extension}`, mediaType, bytes: new Uint8Array(bytes) });
    } catch (error) {
      // A picture that cannot be read leaves its description in the text; the book is still made.
      logger.warn({ err: safeError(error), url }, "epub image left out");
    }
  }
  return packed;
}

const chapterFile = (number: number) => `chapter-${number}.xhtml`;
const volumeFile = (number: number) => `volume-${number}.xhtml`;

/** A v5-shaped UUID of the site and the part: the same book keeps its identifier across downloads. */
function bookIdentifier(origin: string, volume: number | undefined): string {
  const hex = createHash("sha256")
    .update(`${origin}|${volume ?? "serial"}`)
    .digest("hex");
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Paragraphs of plain text (a volume's summary), escaped. */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => `<p>${escapeXml(part.replace(/\s+/g, " "))}</p>`)
    .join("\n");

/**
 * The EPUB 3 file of a reader's book (ADR 89): cover, colophon with the reader's name, a title page per
 * volume, every chapter they may open in full (the chapter page's sanitised HTML as XHTML, with its artwork
 * packed) and every other as a title page linking to it on the site, the navigation document and the package.
 */
export async function buildEpub(contents: BookContents): Promise<Uint8Array<ArrayBuffer>> {
  const { language, origin, volumes } = contents;
  const t = serverTranslator(language);
  const site = await getSiteSettings();
  const single = contents.scope.volume !== undefined ? volumes[0] : undefined;
  const title = single
    ? `${site.title} — ${t("reader.volumeTitle", { number: single.number, title: single.title })}`
    : site.title;

  const open = volumes.flatMap((volume) => volume.chapters.filter((chapter) => !chapter.lock));
  const inBook = new Set(open.map((chapter) => chapter.facts.number));
  const htmlOf = new Map<number, string>();
  const urls = new Set<string>();
  for (const { facts } of open) {
    const html = await chapterHtml(facts);
    htmlOf.set(facts.number, html);
    for (const art of facts.artwork) urls.add(art.picture?.src ?? art.url);
    for (const url of imagesIn(html)) urls.add(url);
  }
  const images = await readImages([...urls]);
  const links = {
    image: (url: string) => images.get(url)?.href,
    link: (href: string) => {
      const chapter = /^\/chapter\/(\d+)(#[\w-]*)?$/.exec(href);
      if (chapter && inBook.has(Number(chapter[1])))
        return `${chapterFile(Number(chapter[1]))}${chapter[2] ?? ""}`;
      return href.startsWith("/") && !href.startsWith("//") ? `${origin}${href}` : href;
    },
  };
  const figure = (url: string, caption: string) => {
    const href = links.image(url);
    if (!href) return caption ? `<p>${escapeXml(caption)}</p>` : "";
    return `<figure><img src="${escapeXml(href)}" alt="${escapeXml(caption)}"/>${caption ? `<figcaption>${escapeXml(caption)}</figcaption>` : ""}</figure>`;
  };
  const chapterBody = ({ facts, lock }: BookChapter) => {
    const heading = `<h1><small>${escapeXml(t("reader.chapterNumber", { number: facts.number }))}</small><br/>${escapeXml(facts.title)}</h1>`;
    if (lock) {
      const why =
        lock.kind === "release"
          ? t("epub.lockedRelease")
          : t("epub.lockedCoins", { count: lock.coinsRequired });
      return `<section class="locked" epub:type="chapter">${heading}
<p>${escapeXml(why)}</p>
<p><a href="${escapeXml(`${origin}/chapter/${facts.number}`)}">${escapeXml(t("epub.readOnSite", { site: site.title }))}</a></p>
</section>`;
    }
    const art = (position: "before" | "after") =>
      facts.artwork
        .filter((item) => item.position === position)
        .map((item) => figure(item.picture?.src ?? item.url, item.caption))
        .join("\n");
    return `<section epub:type="chapter">${heading}
${art("before")}
${toXhtml(htmlOf.get(facts.number) ?? "", links)}
${art("after")}
</section>`;
  };

  const date = new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: contents.timeZone }).format(
    new Date(),
  );
  const part = single ? t("epub.volume", { number: single.number }) : t("epub.wholeSerial");
  const files: EpubFile[] = [{ path: "META-INF/container.xml", data: CONTAINER_XML }];
  const manifest: ManifestItem[] = [
    { id: "nav", href: "nav.xhtml", mediaType: "application/xhtml+xml", properties: "nav" },
    { id: "style", href: "style.css", mediaType: "text/css" },
    { id: "cover-image", href: "cover.png", mediaType: "image/png", properties: "cover-image" },
  ];
  const spine: string[] = [];
  const page = (id: string, href: string, pageTitle: string, body: string, bodyClass?: string) => {
    files.push({
      path: `EPUB/${href}`,
      data: xhtmlDocument({ title: pageTitle, language, body, bodyClass }),
    });
    manifest.push({ id, href, mediaType: "application/xhtml+xml" });
    spine.push(id);
  };
  files.push({ path: "EPUB/style.css", data: STYLESHEET });
  files.push({
    path: "EPUB/cover.png",
    data: await coverPng({ title: site.title, part, partTitle: single?.title, author: site.author }),
  });
  page("cover", "cover.xhtml", title, `<img src="cover.png" alt="${escapeXml(title)}"/>`, "cover");
  page(
    "colophon",
    "colophon.xhtml",
    t("epub.colophon"),
    `<section class="colophon" epub:type="colophon">
<h1>${escapeXml(title)}</h1>
<p>${escapeXml(site.author)}</p>
<p><strong>${escapeXml(t("epub.madeFor", { name: contents.name, date }))}</strong></p>
<p>${escapeXml(t("epub.holds"))}</p>
<p><a href="${escapeXml(`${origin}/toc`)}">${escapeXml(t("epub.visitSite", { site: site.title }))}</a></p>
<p>${escapeXml(t("epub.personal"))}</p>
</section>`,
  );
  const toc: NavEntry[] = [];
  for (const volume of volumes) {
    const volumeTitle = t("reader.volumeTitle", { number: volume.number, title: volume.title });
    page(
      `volume-${volume.number}`,
      volumeFile(volume.number),
      volumeTitle,
      `<section class="part" epub:type="part"><h1>${escapeXml(volumeTitle)}</h1>\n${paragraphs(volume.summary)}</section>`,
    );
    const children: NavEntry[] = [];
    for (const chapter of volume.chapters) {
      const { number, title: chapterTitle } = chapter.facts;
      const label = `${t("reader.chapterNumber", { number })}: ${chapterTitle}`;
      page(`chapter-${number}`, chapterFile(number), chapterTitle, chapterBody(chapter));
      children.push({ title: label, href: chapterFile(number) });
    }
    toc.push({ title: volumeTitle, href: volumeFile(volume.number), children });
  }
  const first = volumes[0];
  files.push({
    path: "EPUB/nav.xhtml",
    data: navDocument({
      title: t("epub.contents"),
      language,
      heading: t("epub.contents"),
      toc,
      landmarks: [
        { type: "cover", title: t("epub.cover"), href: "cover.xhtml" },
        { type: "toc", title: t("epub.contents"), href: "nav.xhtml" },
        ...(first
          ? [{ type: "bodymatter" as const, title: t("epub.start"), href: volumeFile(first.number) }]
          : []),
      ],
    }),
  });
  const byHref = new Map([...images.values()].map((image) => [image.href, image]));
  for (const image of byHref.values()) {
    files.push({ path: `EPUB/${image.href}`, data: image.bytes });
    manifest.push({ id: `image-${image.href.slice(7, 23)}`, href: image.href, mediaType: image.mediaType });
  }
  files.push({
    path: "EPUB/package.opf",
    data: packageDocument({
      identifier: bookIdentifier(origin, contents.scope.volume),
      title,
      language,
      author: site.author,
      publisher: site.title,
      source: `${origin}/toc`,
      rights: t("epub.rights", { name: contents.name }),
      modified: new Date(),
      manifest,
      spine,
    }),
  });
  return zipEpub(files);
}
