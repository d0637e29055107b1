import sharp from "sharp";
import { wrapTitle } from "~/features/site/cards.server";
import { boundedMemo } from "~/lib/bounded-memo";
import { escapeXml } from "./xml";

const WIDTH = 1200;
const HEIGHT = 1800;
const FACE = "'Noto Serif CJK JP', 'Noto Serif', 'DejaVu Serif', serif";
const SANS = "'Noto Sans CJK JP', 'DejaVu Sans', sans-serif";

export type CoverText = { title: string; part: string; partTitle?: string; author: string };

/** The cover as SVG: the serial's title, the part (a volume, or the whole serial) and the author, in the site's colours. */
export function coverSvg({ title, part, partTitle, author }: CoverText): string {
  const lines = (text: string, size: number, count: number, top: number, fill: string, face: string) =>
    wrapTitle(text, size, count)
      .map(
        (line, index) =>
          `<text x="600" y="${Math.round(top + index * size * 1.25)}" font-family="${face}" font-size="${size}" fill="${fill}">${escapeXml(line)}</text>`,
      )
      .join("");
  // The first baseline that centres the wrapped text's lines on `centre`.
  const middle = (text: string, size: number, count: number, centre: number) =>
    centre - (wrapTitle(text, size, count).length * size * 1.25) / 2 + size * 0.85;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1d0b10"/><stop offset="1" stop-color="#120e0b"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<rect x="40" y="40" width="1120" height="1720" fill="none" stroke="#d4af37" stroke-width="4"/>
<rect x="60" y="60" width="1080" height="1680" fill="none" stroke="#9b1030" stroke-width="2"/>
<g text-anchor="middle">
${lines(title, 110, 4, middle(title, 110, 4, 660), "#f3ede2", FACE)}
<line x1="420" y1="1030" x2="780" y2="1030" stroke="#d4af37" stroke-width="3"/>
${lines(part, 60, 1, 1150, "#e0455f", FACE)}
${partTitle ? lines(partTitle, 64, 3, 1250, "#f3ede2", FACE) : ""}
${lines(author.toUpperCase(), 40, 1, 1640, "#e9c46a", SANS)}
</g>
</svg>`;
}

const COVERS_KEPT = 32;
const covers = boundedMemo<Promise<Buffer>>(COVERS_KEPT);

/** The cover drawn as a PNG (reading systems show a raster cover where some ignore an SVG one), made once per text. */
export function coverPng(text: CoverText): Promise<Buffer> {
  const key = JSON.stringify(text);
  return covers(key, () =>
    sharp(Buffer.from(coverSvg(text)))
      .png({ compressionLevel: 9 })
      .toBuffer(),
  );
}
