import sharp from "sharp";
import { boundedMemo } from "~/lib/bounded-memo";

/**
 * The pictures link previews show for pages without artwork of their own (ADR 46): 1200×630 PNG
 * cards drawn from SVG by sharp, in the site's colours, with the system's Noto CJK faces first so a Japanese
 * title renders (DejaVu where they are missing). A card says only what the table of contents says of a
 * chapter, its number and title: never a word of its text.
 */

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

const FACE = "'Noto Serif CJK JP', 'Noto Serif', 'DejaVu Serif', serif";
const SANS = "'Noto Sans CJK JP', 'DejaVu Sans', sans-serif";
const TEXT_WIDTH = 1040;

/** Text for SVG: markup characters as references, control characters (which XML refuses) as spaces. */
const escapeXml = (text: string) =>
  text
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters taken out.
    .replace(/[\u0000-\u001f\u007f]/g, " ");

/** A character's advance in ems, roughly: full width for CJK and other wide scripts, about half otherwise. */
const advance = (char: string) => ((char.codePointAt(0) ?? 0) >= 0x2e80 ? 1 : 0.56);

/**
 * A title cut into at most `lines` lines of `size` pixels: at spaces where there are some, anywhere in
 * scripts written without them; the last line ends in an ellipsis when the title is longer.
 */
export function wrapTitle(title: string, size: number, lines: number): string[] {
  const perLine = TEXT_WIDTH / size;
  const tokens = title.trim().match(/[\u2e80-\uffff]|[^\s\u2e80-\uffff]+|\s+/gu) ?? [];
  const out: string[] = [];
  let line = "";
  let width = 0;
  for (const token of tokens) {
    const tokenWidth = [...token].reduce((sum, char) => sum + advance(char), 0);
    if (width + tokenWidth > perLine && line.trim()) {
      out.push(line.trim());
      line = "";
      width = 0;
      if (/^\s+$/.test(token)) continue;
    }
    line += token;
    width += tokenWidth;
  }
  if (line.trim()) out.push(line.trim());
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = `${[...(kept[lines - 1] ?? "")].slice(0, -1).join("")}…`;
  return kept;
}

/** The SVG of a card: the site's name, an optional chapter number, and a title. */
export function cardSvg({ site, number, title }: { site: string; number?: number; title: string }): string {
  const size = title.length > 40 ? 60 : 76;
  const lines = wrapTitle(title, size, 3);
  // The title's lines centred in the space under the number (or under the site's name).
  const lineHeight = size * 1.25;
  const [from, to] = number === undefined ? [150, 520] : [240, 520];
  const top = (from + to) / 2 - (lines.length * lineHeight) / 2 + size * 0.85;
  const titleLines = lines
    .map(
      (line, index) =>
        `<text x="600" y="${Math.round(top + index * lineHeight)}" font-size="${size}">${escapeXml(line)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1d0b10"/><stop offset="1" stop-color="#120e0b"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<rect x="24" y="24" width="1152" height="582" fill="none" stroke="#d4af37" stroke-width="3"/>
<rect x="36" y="36" width="1128" height="558" fill="none" stroke="#9b1030" stroke-width="1.5"/>
<text x="600" y="110" font-family="${SANS}" font-size="30" letter-spacing="8" fill="#e9c46a" text-anchor="middle">${escapeXml(site.toUpperCase())}</text>
${number === undefined ? "" : `<text x="600" y="205" font-family="${FACE}" font-size="64" fill="#e0455f" text-anchor="middle">— ${number} —</text>`}
<g font-family="${FACE}" fill="#f3ede2" text-anchor="middle">${titleLines}</g>
<line x1="480" y1="545" x2="720" y2="545" stroke="#d4af37" stroke-width="2"/>
</svg>`;
}

/** Cards made, by what they show: at most this many kept, the oldest made going first (about 60 KB each). */
const CACHE_LIMIT = 200;
const made = boundedMemo<Promise<Buffer>>(CACHE_LIMIT);

/** The PNG of a card, made once for what it shows (a new title makes a new card). */
export function cardPng(facts: { site: string; number?: number; title: string }): Promise<Buffer> {
  const key = JSON.stringify([facts.site, facts.number, facts.title]);
  return made(key, () =>
    sharp(Buffer.from(cardSvg(facts)))
      .png({ compressionLevel: 9, palette: false })
      .toBuffer(),
  );
}
